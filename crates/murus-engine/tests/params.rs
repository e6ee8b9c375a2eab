//! A variant per combination of a rule file's parameters.

use murus_engine::Variant;

const SIZED: &str = r##"variant "sized"
param files = 7..9 default 8
board rect $files x 7
player "Romans" { letter r colour "#e8dcc0" home rank 1 forward n }
player "Gauls" { letter g colour "#5b3a29" home rank 7 forward s }
setup { r 2 on rank 1  g 2 on rank 7 }
stack limit 2
sow { heights 2 directions all onto empty, own 1 }
win { breakthrough immediate stalemate loses }
"##;

fn set(name: &str, value: u32) -> Vec<(String, u32)> {
    vec![(name.to_string(), value)]
}

#[test]
fn each_combination_is_a_variant_with_its_own_source() {
    let standard = Variant::standard();
    let mut sources = Vec::new();
    for files in 7..=9 {
        let v = Variant::compile_with(SIZED, &set("files", files)).unwrap();
        assert_eq!(v.geometry().cell_count(), files as usize * 7);
        let text = v.source().to_string();
        assert!(text.contains(&format!("param files = {files}\n")), "{text}");
        assert_eq!(
            text,
            murus_dsl::instantiate(SIZED, &set("files", files)).unwrap()
        );
        // The text alone gives the same variant.
        let again = Variant::compile(&text).unwrap();
        assert_eq!(again.rules(), v.rules());
        sources.push(text);
    }
    sources.dedup();
    assert_eq!(sources.len(), 3);
    // 8 files: the standard game's rules, 20 moves from the start.
    let eight = Variant::compile_with(SIZED, &set("files", 8)).unwrap();
    assert_eq!(eight.legal_moves(&eight.start()).len(), 20);
    assert_eq!(eight.geometry(), standard.geometry());
    // Without settings, the defaults: the same rules as `compile`, but the
    // source is the instantiated text.
    let default = Variant::compile_with(SIZED, &[]).unwrap();
    assert_eq!(default.rules(), Variant::compile(SIZED).unwrap().rules());
    assert_eq!(default.source(), sources[1]);
    assert_eq!(Variant::compile(SIZED).unwrap().source(), SIZED);
}

#[test]
fn a_bad_setting_is_a_diagnostic_in_the_original_source() {
    let d = Variant::compile_with(SIZED, &set("files", 12)).unwrap_err();
    let text = murus_dsl::render_all(&d, "sized.mg", SIZED);
    assert!(
        text.starts_with("sized.mg:2:15: error: parameter `files` cannot be 12"),
        "{text}"
    );
    assert!(Variant::compile_with(SIZED, &set("ranks", 7)).is_err());
}
