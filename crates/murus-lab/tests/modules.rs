//! The workspace's crates are built in layers: within a crate, no two
//! top-level modules import each other, directly or around a cycle, and no
//! source file is longer than 900 lines before its test module.
//!
//! The graph is read as `shared/tools/modcycles.py` reads it: the
//! `crate::` paths of each file (a `crate::{a, b::c}` group names `a` and
//! `b`), comments and the `#[cfg(test)] mod` at a file's end left out. Run
//! with `--nocapture` to see every crate's graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The most lines a source file may have before its test module.
const MAX_LINES: usize = 900;

/// The workspace's `crates` folder.
fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lives in the workspace's crates folder")
        .to_path_buf()
}

/// The `.rs` files under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `text` up to its `#[cfg(test)] mod …`, without `//` comments.
fn without_tests(text: &str) -> String {
    let mut end = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start_matches([' ', '\t', '\r']);
        if let Some(rest) = rest.strip_prefix('\n') {
            let rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix("mod")
                && after.starts_with(char::is_whitespace)
                && after
                    .trim_start()
                    .starts_with(|c: char| c.is_alphanumeric() || c == '_')
            {
                end = at;
                break;
            }
        }
        from = at + 1;
    }
    text[..end]
        .lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The names that follow `crate::` in `text`: `crate::a::b` names `a`,
/// `crate::{a, b::c}` names `a` and `b`.
fn names_after_crate(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("crate::") {
        let start = from + i + "crate::".len();
        from = start;
        let rest = &text[start..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names of the group: the first word after `{` or a
            // comma at depth 1.
            let (mut depth, mut word, mut first) = (1, String::new(), true);
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && first && is_word(c) {
                    word.push(c);
                } else if !word.is_empty() {
                    out.insert(std::mem::take(&mut word));
                    first = false;
                }
                if depth == 1 && c == ',' {
                    first = true;
                }
            }
            if !word.is_empty() {
                out.insert(word);
            }
        } else {
            let word: String = rest.chars().take_while(|&c| is_word(c)).collect();
            if !word.is_empty() {
                out.insert(word);
            }
        }
    }
    out
}

/// A crate's top-level modules, each with the modules it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The module graph of the crate whose sources are in `src`, and the files
/// longer than [`MAX_LINES`] before their tests (with their lengths).
fn graph(src: &Path) -> (Graph, Vec<(PathBuf, usize)>) {
    let mut imports: Graph = BTreeMap::new();
    let mut long = Vec::new();
    for file in sources(src) {
        let rel = file.strip_prefix(src).expect("under src");
        let top = rel
            .components()
            .next()
            .expect("a file has a name")
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = without_tests(&std::fs::read_to_string(&file).expect("a readable source"));
        let lines = text.lines().count();
        if lines > MAX_LINES {
            long.push((file.clone(), lines));
        }
        let names = names_after_crate(&text);
        imports
            .entry(top.clone())
            .or_default()
            .extend(names.into_iter().filter(|n| *n != top));
    }
    let modules: BTreeSet<String> = imports.keys().cloned().collect();
    for deps in imports.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    (imports, long)
}

/// The strongly connected components of `g` with more than one module
/// (Tarjan's algorithm).
fn cycles(g: &Graph) -> Vec<BTreeSet<String>> {
    struct Tarjan<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<BTreeSet<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on.insert(v);
            for w in &self.g[v] {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(lw);
                } else if self.on.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).expect("visited");
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = BTreeSet::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.insert(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

/// Every crate of the workspace: its name and its `src` folder.
fn crates() -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(crates_dir())
        .expect("the crates folder reads")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, p.join("src"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn no_crate_has_an_import_cycle_between_its_top_level_modules() {
    let crates = crates();
    assert!(crates.iter().any(|(n, _)| n == "murus-lab"), "{crates:?}");
    let mut bad = Vec::new();
    for (name, src) in &crates {
        let (g, _) = graph(src);
        println!("{name}:");
        for (module, deps) in &g {
            let deps: Vec<&str> = deps.iter().map(String::as_str).collect();
            println!("  {module} -> {}", deps.join(", "));
        }
        for cycle in cycles(&g) {
            bad.push(format!(
                "{name}: cycle of {} modules: {}",
                cycle.len(),
                cycle.iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    assert!(bad.is_empty(), "import cycles:\n{}", bad.join("\n"));
}

#[test]
fn no_source_file_is_longer_than_900_lines_before_its_tests() {
    let root = crates_dir();
    let mut bad = Vec::new();
    for (_, src) in crates() {
        for (file, lines) in graph(&src).1 {
            let rel = Path::new("crates").join(file.strip_prefix(&root).expect("under crates"));
            let rel = rel.to_string_lossy().replace('\\', "/");
            bad.push(format!("{rel}: {lines} lines (limit {MAX_LINES})"));
        }
    }
    assert!(bad.is_empty(), "files too long:\n{}", bad.join("\n"));
}

#[test]
fn the_reader_finds_the_modules_a_file_imports_and_the_cycles_they_make() {
    let text = "use crate::{a::x, b, c::{d, e}};\n// crate::commented\nfn f() { crate::f::g(); }\n#[cfg(test)]\nmod tests { use crate::t; }\n";
    let names = names_after_crate(&without_tests(text));
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["a", "b", "c", "f"],
        "grouped and plain paths, no comment, no test module"
    );
    let g: Graph = [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]
        .into_iter()
        .map(|(m, d)| (m.to_string(), BTreeSet::from([d.to_string()])))
        .collect();
    let found = cycles(&g);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].iter().cloned().collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
}
