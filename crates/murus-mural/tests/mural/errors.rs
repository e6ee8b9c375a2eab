//! Every file in `tests/errors/` fails to load; its diagnostics, rendered
//! with file, line and column, are snapshotted.

use murus_mural::Puzzle;

#[test]
fn load_errors() {
    insta::glob!("errors/*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        let name = format!(
            "errors/{}",
            path.file_name().expect("a file").to_string_lossy()
        );
        let diags = Puzzle::from_toml(&text).expect_err("every error case fails to load");
        let rendered = murus_dsl::render_all(&diags, &name, &text);
        assert!(rendered.contains(&format!("{name}:")), "{rendered}");
        insta::assert_snapshot!(rendered);
    });
}
