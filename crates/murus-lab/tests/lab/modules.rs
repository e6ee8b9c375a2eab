//! The workspace's crates are built in layers: within a crate, at every
//! level (the top-level modules, and the files and folders inside each
//! module folder, such as `murus-lab`'s `train/`), no two modules import
//! each other, directly or around a cycle, and no source file is longer
//! than 900 lines before its test module.
//!
//! The graph is read as `shared/tools/modcycles.py` reads it: the
//! `crate::`, `super::` and `self::` paths of each file (groups expanded:
//! `crate::{a, b::{c, d}}` names `a`, `b::c` and `b::d`), each resolved to
//! the module it names; comments and the `#[cfg(test)] mod` at a file's
//! end left out. A path from `a/x.rs` to `a/y.rs` is an edge `x -> y`
//! inside `a`; one from `a/x.rs` to `b/z.rs` an edge `a -> b` at the top.
//! Run with `--nocapture` to see every graph.

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

/// Where a path ends in `text` from `i`: its segments pushed onto `cur`
/// (`a::b`, a group `{…}` expanded, a glob `*` ending it), each whole path
/// added to `out`.
fn path_at(text: &[u8], mut i: usize, mut cur: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let skip = |i: &mut usize| {
        while *i < text.len() && text[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let mut read = false;
    loop {
        skip(&mut i);
        if text.get(i) == Some(&b'{') {
            return group_at(text, i + 1, &cur, out);
        }
        let start = i;
        while i < text.len() && is_word(char::from(text[i])) {
            i += 1;
        }
        if i == start {
            // A glob (`a::*`) ends the path; nothing read is no path.
            if !read {
                return i;
            }
            break;
        }
        read = true;
        cur.push(String::from_utf8_lossy(&text[start..i]).into_owned());
        skip(&mut i);
        if text[i..].starts_with(b"::") {
            i += 2;
        } else {
            break;
        }
    }
    out.push(cur);
    i
}

/// A group's paths, from just after its `{` to just after its `}`.
fn group_at(text: &[u8], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) -> usize {
    loop {
        while i < text.len() && (text[i].is_ascii_whitespace() || text[i] == b',') {
            i += 1;
        }
        match text.get(i) {
            None => return i,
            Some(b'}') => return i + 1,
            Some(_) => {}
        }
        let next = path_at(text, i, prefix.to_vec(), out);
        // Neither a word nor a group (a glob `*`): stepped over.
        i = if next == i { i + 1 } else { next };
    }
}

/// Every path in `text` that starts with `crate`, `super` or `self` and
/// goes on with `::`, its groups expanded.
fn paths(text: &str) -> Vec<Vec<String>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for head in ["crate::", "super::", "self::"] {
        for (at, _) in text.match_indices(head) {
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| is_word(c) || c == ':') {
                continue;
            }
            path_at(bytes, at, Vec::new(), &mut out);
        }
    }
    out
}

/// The module `path` names from the module `here`, as written (before
/// looking for the longest prefix that is a module).
fn resolve(path: &[String], here: &[String]) -> Vec<String> {
    let (head, mut rest) = path.split_first().expect("a path has a head");
    if head == "crate" {
        return rest.to_vec();
    }
    let mut base = here.to_vec();
    let mut head = head.as_str();
    while head == "super" || head == "self" {
        if head == "super" {
            base.pop();
        }
        match rest.split_first() {
            Some((h, r)) => {
                head = h;
                rest = r;
            }
            None => return base,
        }
    }
    base.push(head.to_string());
    base.extend(rest.iter().cloned());
    base
}

/// The module path of a source file under `src`: `a/b.rs` is `[a, b]`,
/// `a/mod.rs` is `[a]`, `lib.rs` and `main.rs` the crate root `[]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
    }
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The modules of one level (the crate's top, or one module folder), each
/// with the modules of that level it imports.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// The module graphs of the crate whose sources are in `src`, one for each
/// level that has edges (by its parent module's path, `""` for the top,
/// `train` for `train/`), and the files longer than [`MAX_LINES`] before
/// their tests (with their lengths).
fn graphs(src: &Path) -> (BTreeMap<String, Graph>, Vec<(PathBuf, usize)>) {
    let mut long = Vec::new();
    let mut files = BTreeMap::new();
    for file in sources(src) {
        let here = module_of(file.strip_prefix(src).expect("under src"));
        let text = without_tests(&std::fs::read_to_string(&file).expect("a readable source"));
        let lines = text.lines().count();
        if lines > MAX_LINES {
            long.push((file.clone(), lines));
        }
        files.insert(here, text);
    }
    let mut levels: BTreeMap<String, Graph> = BTreeMap::new();
    for (here, text) in &files {
        for path in paths(text) {
            let mut target = resolve(&path, here);
            while !target.is_empty() && !files.contains_key(&target) {
                target.pop();
            }
            let k = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if k < here.len() && k < target.len() {
                levels
                    .entry(here[..k].join("/"))
                    .or_default()
                    .entry(here[k].clone())
                    .or_default()
                    .insert(target[k].clone());
            }
        }
    }
    // Every module the edges name is a node.
    for g in levels.values_mut() {
        let named: Vec<String> = g.values().flatten().cloned().collect();
        for n in named {
            g.entry(n).or_default();
        }
    }
    (levels, long)
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

/// Cycles known and being taken apart elsewhere, by crate and level: each
/// must still be there (the test says when one is gone, so that it leaves
/// this list), and no other may appear.
/// Cycles known and being taken apart elsewhere, by crate and level: each
/// must still be there (the test says when one is gone, so that it leaves
/// this list), and no other may appear. None today.
const KNOWN_CYCLES: &[(&str, &str, &str)] = &[];

#[test]
fn no_crate_has_an_import_cycle_at_any_level_of_its_modules() {
    let crates = crates();
    assert!(crates.iter().any(|(n, _)| n == "murus-lab"), "{crates:?}");
    let mut bad = Vec::new();
    let mut known_seen = Vec::new();
    for (name, src) in &crates {
        let (levels, _) = graphs(src);
        for (level, g) in &levels {
            println!("{name} {}:", if level.is_empty() { "(top)" } else { level });
            for (module, deps) in g {
                let deps: Vec<&str> = deps.iter().map(String::as_str).collect();
                println!("  {module} -> {}", deps.join(", "));
            }
            for cycle in cycles(g) {
                let modules = cycle.iter().cloned().collect::<Vec<_>>().join(", ");
                if KNOWN_CYCLES.iter().any(|(c, l, _)| c == name && l == level) {
                    known_seen.push((name.clone(), level.clone()));
                    continue;
                }
                let at = if level.is_empty() {
                    String::new()
                } else {
                    format!("/src/{level}")
                };
                bad.push(format!(
                    "{name}{at}: cycle of {} modules: {modules}",
                    cycle.len()
                ));
            }
        }
    }
    for (c, l, what) in KNOWN_CYCLES {
        if !known_seen.iter().any(|(n, lv)| n == c && lv == l) {
            bad.push(format!(
                "{c}/src/{l} has no cycle any more ({what}): take it out of KNOWN_CYCLES"
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
        for (file, lines) in graphs(&src).1 {
            let rel = Path::new("crates").join(file.strip_prefix(&root).expect("under crates"));
            let rel = rel.to_string_lossy().replace('\\', "/");
            bad.push(format!("{rel}: {lines} lines (limit {MAX_LINES})"));
        }
    }
    assert!(bad.is_empty(), "files too long:\n{}", bad.join("\n"));
}

#[test]
fn the_reader_finds_the_modules_a_file_imports_and_the_cycles_they_make() {
    let text = "use crate::{a::x, b, c::{d, e}};\n// crate::commented\nfn f() { crate::f::g(); }\nuse super::{self, h::*};\nuse self::i::j as k;\n#[cfg(test)]\nmod tests { use crate::t; }\n";
    let found: Vec<String> = paths(&without_tests(text))
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        found,
        [
            "crate::a::x",
            "crate::b",
            "crate::c::d",
            "crate::c::e",
            "crate::f::g",
            "super::self",
            "super::h",
            "self::i::j",
        ],
        "grouped and plain paths, no comment, no test module"
    );
    let here = ["train".to_string(), "data".to_string()];
    let names = |p: &str| p.split("::").map(String::from).collect::<Vec<_>>();
    assert_eq!(
        resolve(&names("super::run::TrainProgress"), &here),
        names("train::run::TrainProgress")
    );
    assert_eq!(
        resolve(&names("crate::folder::Mode"), &here),
        names("folder::Mode")
    );
    assert_eq!(resolve(&names("self::x"), &here), names("train::data::x"));
    assert_eq!(
        resolve(&names("super::super::stats"), &here),
        names("stats")
    );
    assert_eq!(module_of(Path::new("train/mod.rs")), ["train"]);
    assert_eq!(module_of(Path::new("train/data.rs")), ["train", "data"]);
    assert!(module_of(Path::new("lib.rs")).is_empty());
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
