//! Error cases, one input file each, snapshotted as the user sees them.

use murus_dsl::{compile, render_all};

/// Each file in `errors/` must fail to compile; the snapshot is the rendered
/// diagnostics, with the bare file name as the file.
#[test]
fn error_cases_render_like_rustc() {
    insta::glob!("errors/*.mg", |path| {
        let source = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let diags = match compile(&source) {
            Ok(_) => panic!("{name} compiled, but it is an error case"),
            Err(diags) => diags,
        };
        assert!(
            diags.iter().any(murus_dsl::Diagnostic::is_error),
            "{name}: no error"
        );
        insta::assert_snapshot!(render_all(&diags, &name, &source));
    });
}

/// Each file in `warnings/` compiles, with warnings.
#[test]
fn warning_cases_compile_and_warn() {
    insta::glob!("warnings/*.mg", |path| {
        let source = std::fs::read_to_string(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        let compiled = match compile(&source) {
            Ok(c) => c,
            Err(diags) => panic!("{}", render_all(&diags, &name, &source)),
        };
        assert!(!compiled.warnings.is_empty(), "{name}: no warning");
        insta::assert_snapshot!(render_all(&compiled.warnings, &name, &source));
    });
}

/// A suggested fix travels in `Diagnostic::help`, never as a note that
/// happens to start with `help: ` (tools read the field, not the text).
#[test]
fn helps_are_typed_not_notes() {
    let mut helps = 0;
    insta::glob!("errors/*.mg", |path| {
        let source = std::fs::read_to_string(path).unwrap();
        let diags = compile(&source).err().unwrap_or_default();
        for d in &diags {
            assert!(
                !d.notes.iter().any(|n| n.starts_with("help")),
                "{}: a help among the notes: {:?}",
                path.display(),
                d.notes
            );
            helps += usize::from(d.help.is_some());
        }
    });
    assert!(helps >= 4, "only {helps} error cases carry a help");
}
