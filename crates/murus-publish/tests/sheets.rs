//! The shipped variants' rules sheets, kept in `docs/sheets/<variant>/`
//! (issue 23): each is regenerated here and must equal the file in the
//! repository, so a change to the rules, the words or the drawing that
//! changes a sheet fails until the sheets are rewritten with
//! `UPDATE_SHEETS=1 cargo test -p murus-publish --test sheets`.

use std::path::PathBuf;
use std::time::Instant;

use murus_engine::{BUILTIN, Variant};
use murus_publish::{SheetOptions, rules_sheet_html};

fn sheets_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/sheets")
}

#[test]
fn the_shipped_variants_sheets_in_docs_are_current() {
    let update = std::env::var_os("UPDATE_SHEETS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for (name, source) in BUILTIN {
        let t = Instant::now();
        let v = Variant::compile(source).expect("a shipped variant compiles");
        let html = rules_sheet_html(&v, &SheetOptions::default()).unwrap();
        eprintln!("{name}: {:?}, {} bytes", t.elapsed(), html.len());
        let file = sheets_dir().join(name).join("index.html");
        if update {
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, &html).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(html.as_str()) {
            stale.push(file.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "these sheets are missing or out of date: {}\n\
         rewrite them with `UPDATE_SHEETS=1 cargo test -p murus-publish --test sheets`",
        stale.join(", ")
    );
}
