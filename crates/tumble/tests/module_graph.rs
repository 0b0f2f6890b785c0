//! No module cycles in the engine crate, nor in the workspace's other
//! crates: the modules of each folder of `src` (the top-level modules
//! under `lib.rs`, a folder's files under its `mod.rs`) name each other
//! without a circle, so that each can be read, changed and tested on top
//! of the ones it names.
//!
//! The graph is read from the source text: every path a file's code
//! names through `crate::`, `super::` or `self::` (in `use` lines, grouped
//! or not, and inline; a folder's `mod.rs` also names its children in
//! `use` lines by their bare names), each resolved to the module it lands
//! in, through the names a `mod.rs` or `lib.rs` brings in with `use`. In
//! each folder above it, a file counts as part of the module of that
//! folder it lies in; a folder's own `mod.rs` declares the folder's
//! modules and counts in the folders above only. Comments, strings and
//! test code (`#[cfg(test)]` items and the files of `#[cfg(test)] mod`
//! lines) are left out: a test may reach for any helper.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Per folder's module, the names its `use` lines bring in: each with the
/// module it comes from and its name there.
type Aliases = BTreeMap<ModPath, BTreeMap<String, (ModPath, String)>>;

/// A module's path from the crate root: `[]` for `lib.rs`, `["solver",
/// "graph"]` for `solver/graph/mod.rs` or `solver/graph.rs`.
type ModPath = Vec<String>;

/// One source file of the crate.
struct SourceFile {
    /// Where it is, relative to `src`.
    path: PathBuf,
    /// Its module.
    module: ModPath,
    /// Whether it is a folder's `mod.rs` or `lib.rs`: the module of a
    /// folder, which declares that folder's children.
    declares: bool,
    /// Its code, comments, strings and test items removed.
    code: String,
}

#[test]
fn the_modules_of_each_folder_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = cycles_in(&src);
    assert!(found.is_empty(), "module cycles:\n\n{}", found.join("\n"));
}

#[test]
fn the_other_crates_of_the_workspace_form_no_cycle_either() {
    // The Python module, the environments, the scenes, the testbed and
    // the benchmark, read the same way.
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for name in [
        "tumble-py",
        "tumble-envs",
        "tumble-scenes",
        "tumble-testbed",
        "tumble-bench",
    ] {
        for cycle in cycles_in(&crates.join(name).join("src")) {
            found.push(format!("{name}: {cycle}"));
        }
    }
    assert!(found.is_empty(), "module cycles:\n\n{}", found.join("\n"));
}

/// The module cycles of the crate whose sources are under `src`, each
/// described with the files and paths that make its edges.
fn cycles_in(src: &Path) -> Vec<String> {
    let crate_graph = CrateGraph::read(src);
    assert!(
        crate_graph
            .levels
            .get(&Vec::new())
            .is_some_and(|l| !l.edges.is_empty()),
        "no edge found between the top-level modules of {}: the scan reads nothing",
        src.display()
    );
    let mut found = Vec::new();
    for (folder, level) in &crate_graph.levels {
        for cycle in level.cycles() {
            found.push(level.describe(folder, &cycle));
        }
    }
    found
}

#[test]
fn the_scan_finds_grouped_nested_and_inline_paths() {
    let code = strip(
        "use crate::{a::X, b::{self, c::Y as Z}};\n\
         use super::d::*; // crate::commented::Out\n\
         fn f() { let s = \"crate::quoted::Out\"; crate::e::f(); self::g::h(); }\n\
         #[cfg(test)]\nmod tests { use crate::tested::Out; }\n\
         #[cfg(test)]\nfn helper() -> u32 { crate::helped::out() }\n",
    );
    let paths: BTreeSet<String> = paths_in(&code, &[]).into_iter().map(|p| p.join("::")).collect();
    let expected = [
        "crate::a::X",
        "crate::b",
        "crate::b::c::Y",
        "super::d",
        "crate::e::f",
        "self::g::h",
    ];
    assert_eq!(paths, expected.iter().map(|s| s.to_string()).collect());
}

/// The graph of each folder's modules.
struct CrateGraph {
    /// Per folder (its module path), the edges between its children.
    levels: BTreeMap<ModPath, Level>,
}

/// The modules of one folder and the edges between them.
#[derive(Default)]
struct Level {
    /// `from -> to`, with the first file and path seen to make it.
    edges: BTreeMap<(String, String), (PathBuf, String)>,
}

impl CrateGraph {
    /// Reads the files under `src` into each folder's graph.
    fn read(src: &Path) -> CrateGraph {
        let files = read_files(src);
        let modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
        // The names each folder's module re-exports, and where from.
        let mut aliases = Aliases::new();
        for f in files.iter().filter(|f| f.declares) {
            let map = aliases.entry(f.module.clone()).or_default();
            for (path, name) in use_paths(&f.code, &f.module, &modules) {
                if let Some(target) = resolve(&path, &f.module, &modules, &Aliases::new()) {
                    if target != f.module {
                        let item = path.last().expect("a path").clone();
                        map.insert(name, (target, item));
                    }
                }
            }
        }
        let mut levels: BTreeMap<ModPath, Level> = BTreeMap::new();
        for f in &files {
            for path in paths_in(&f.code, &children(&f.module, &modules)) {
                let Some(target) = resolve(&path, &f.module, &modules, &aliases) else {
                    continue;
                };
                // Each folder the file lies in (a folder's own `mod.rs`
                // is in the folders above it only) where the target lies
                // in another of its modules.
                for depth in 0..f.module.len() {
                    let folder = &f.module[..depth];
                    if target.len() <= depth || target[..depth] != *folder {
                        continue;
                    }
                    let (from, to) = (&f.module[depth], &target[depth]);
                    if from != to {
                        levels
                            .entry(folder.to_vec())
                            .or_default()
                            .edges
                            .entry((from.clone(), to.clone()))
                            .or_insert_with(|| (f.path.clone(), path.join("::")));
                    }
                }
            }
        }
        CrateGraph { levels }
    }
}

impl Level {
    /// The cycles among the folder's modules: each strongly connected set
    /// of more than one, sorted.
    fn cycles(&self) -> Vec<Vec<String>> {
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, to) in self.edges.keys() {
            next.entry(from).or_default().push(to);
            next.entry(to).or_default();
        }
        let reach = |from: &str| {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from];
            while let Some(m) = todo.pop() {
                for &n in &next[m] {
                    if seen.insert(n) {
                        todo.push(n);
                    }
                }
            }
            seen
        };
        let reached: BTreeMap<&str, BTreeSet<&str>> = next.keys().map(|&m| (m, reach(m))).collect();
        let mut cycles: BTreeSet<Vec<String>> = BTreeSet::new();
        for (&m, seen) in &reached {
            if !seen.contains(m) {
                continue;
            }
            let cycle: Vec<String> = seen
                .iter()
                .filter(|&&n| reached[n].contains(m))
                .map(|n| n.to_string())
                .collect();
            cycles.insert(cycle);
        }
        cycles.into_iter().collect()
    }

    /// A cycle through `members`: the shortest way from the first back to
    /// it, each step with the file and path that make it.
    fn describe(&self, folder: &ModPath, members: &[String]) -> String {
        let inside = |m: &String| members.contains(m);
        let start = &members[0];
        // Breadth first from the start; `came` holds each module's step in.
        let mut came: BTreeMap<&String, (&String, &(PathBuf, String))> = BTreeMap::new();
        let mut todo = std::collections::VecDeque::from([start]);
        'search: while let Some(at) = todo.pop_front() {
            for ((from, to), evidence) in &self.edges {
                if from == at && inside(to) && !came.contains_key(to) {
                    came.insert(to, (from, evidence));
                    if to == start {
                        break 'search;
                    }
                    todo.push_back(to);
                }
            }
        }
        let mut steps = Vec::new();
        let mut at = start;
        loop {
            let (from, (file, path)) = came[at];
            steps.push(format!("  {from} -> {at}: {} names {path}", file.display()));
            at = from;
            if at == start {
                break;
            }
        }
        steps.reverse();
        let name = if folder.is_empty() {
            "the crate root".to_string()
        } else {
            format!("crate::{}", folder.join("::"))
        };
        format!("in {name}, the modules {members:?}:\n{}", steps.join("\n"))
    }
}

/// Every `.rs` file under `src` but test code, with its module.
fn read_files(src: &Path) -> Vec<SourceFile> {
    let mut all = Vec::new();
    collect(src, src, &mut all);
    // The files of `#[cfg(test)] mod x;` lines, and what is below them.
    let mut tests: BTreeSet<ModPath> = BTreeSet::new();
    let mut files = Vec::new();
    for (path, text) in &all {
        let (module, declares) = module_of(path);
        for name in test_children(text) {
            let mut child = module.clone();
            child.push(name);
            tests.insert(child);
        }
        files.push((path.clone(), module, declares, text));
    }
    files
        .into_iter()
        .filter(|(_, module, ..)| !tests.iter().any(|t| module.starts_with(t)))
        .map(|(path, module, declares, text)| SourceFile {
            path,
            module,
            declares,
            code: strip(text),
        })
        .collect()
}

/// Every `.rs` file under `dir`, its path relative to `root`, with its
/// text, in path order.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("a readable source folder")
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a readable source file");
            out.push((path.strip_prefix(root).expect("under src").to_path_buf(), text));
        }
    }
}

/// The module of the file at `path` (relative to `src`), and whether it
/// is a folder's (`lib.rs` or `mod.rs`).
fn module_of(path: &Path) -> (ModPath, bool) {
    let mut parts: ModPath = path
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let last = parts.pop().expect("a file name");
    if last == "mod" || (last == "lib" && parts.is_empty()) {
        (parts, true)
    } else {
        parts.push(last);
        (parts, false)
    }
}

/// The modules of `module` as the files show them.
fn children(module: &ModPath, modules: &BTreeSet<ModPath>) -> Vec<String> {
    modules
        .iter()
        .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
        .map(|m| m.last().expect("a child").clone())
        .collect()
}

/// The modules a file declares under `#[cfg(test)]` (or `doctest`).
fn test_children(text: &str) -> Vec<String> {
    let code = strip_comments_and_literals(text);
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(") {
        let after = &rest[at..];
        let end = after.find(']').unwrap_or(after.len());
        let attr = &after[..end];
        rest = &after[end..];
        if !is_test_cfg(attr) {
            continue;
        }
        // Past any further attributes, to the item.
        let mut item = rest[1..].trim_start();
        while item.starts_with("#[") {
            item = item[item.find(']').map_or(item.len(), |e| e + 1)..].trim_start();
        }
        let item = item.strip_prefix("pub ").unwrap_or(item);
        if let Some(decl) = item.strip_prefix("mod ") {
            let name: String = decl
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if decl[name.len()..].trim_start().starts_with(';') {
                out.push(name);
            }
        }
    }
    out
}

/// Whether the attribute (from `#[cfg(` on) keeps its item to test builds.
fn is_test_cfg(attr: &str) -> bool {
    let inner = attr.trim_start_matches("#[cfg(");
    inner.starts_with("test)") || inner.starts_with("doctest)") || inner.starts_with("all(test")
}

/// `text` without comments, string and char literals, and test items.
fn strip(text: &str) -> String {
    remove_test_items(&strip_comments_and_literals(text))
}

/// `text` with its comments removed and each string or char literal
/// emptied (`""`), lifetimes kept.
fn strip_comments_and_literals(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '/' if c.get(i + 1) == Some(&'/') => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '/' if c.get(i + 1) == Some(&'*') => {
                let mut depth = 0;
                while i < c.len() {
                    if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                        depth += 1;
                        i += 2;
                    } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            'r' if !ident_before(&c, i) && matches!(c.get(i + 1), Some('"') | Some('#')) => {
                // A raw string: r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while c.get(j) == Some(&'#') {
                    hashes += 1;
                    j += 1;
                }
                if c.get(j) != Some(&'"') {
                    out.push(c[i]);
                    i += 1;
                    continue;
                }
                j += 1;
                loop {
                    if j >= c.len() {
                        break;
                    }
                    if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
            }
            '"' => {
                i += 1;
                while i < c.len() && c[i] != '"' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            '\'' => {
                // A char literal ('x', '\n', '\u{..}'), or a lifetime.
                if c.get(i + 1) == Some(&'\\') {
                    let mut j = i + 3;
                    while j < c.len() && c[j] != '\'' {
                        j += 1;
                    }
                    out.push_str("''");
                    i = j + 1;
                } else if c.get(i + 2) == Some(&'\'') {
                    out.push_str("''");
                    i += 3;
                } else {
                    out.push('\'');
                    i += 1;
                }
            }
            ch => {
                out.push(ch);
                i += 1;
            }
        }
    }
    out
}

/// Whether `c[i]` continues an identifier.
fn ident_before(c: &[char], i: usize) -> bool {
    i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_')
}

/// `code` without the items under a test-only `#[cfg(..)]`: each item up
/// to its `;`, or its braces.
fn remove_test_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(") {
        let after = &rest[at..];
        let end = after.find(']').map_or(after.len(), |e| e + 1);
        if !is_test_cfg(&after[..end]) {
            out.push_str(&rest[..at + end]);
            rest = &after[end..];
            continue;
        }
        out.push_str(&rest[..at]);
        // Skip to the item's end: the first `;` outside brackets, or the
        // brace that closes the first one opened.
        let item = &after[end..];
        let mut depth = 0i32;
        let mut cut = item.len();
        for (k, ch) in item.char_indices() {
            match ch {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => {
                    depth -= 1;
                    if depth == 0 && ch == '}' {
                        cut = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    cut = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[cut..];
    }
    out.push_str(rest);
    out
}

/// Every path the code names: the leaves of its `use` trees, and the
/// inline paths from `crate::`, `super::` and `self::` on. A `use` path
/// whose first name is one of `children` (a folder's `mod.rs` naming its
/// files) is read from `self::`.
fn paths_in(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = use_trees(code)
        .into_iter()
        .flat_map(|tree| expand(&tree, children))
        .map(|(path, _)| path)
        .collect();
    let without_uses = remove_uses(code);
    let c: Vec<char> = without_uses.chars().collect();
    let mut i = 0;
    while i < c.len() {
        if !ident_before(&c, i) {
            for root in ["crate", "super", "self"] {
                if starts_with_word(&c, i, root) {
                    let (path, end) = inline_path(&c, i);
                    if path.len() > 1 {
                        out.push(path);
                    }
                    i = end.max(i + 1) - 1;
                    break;
                }
            }
        }
        i += 1;
    }
    out
}

/// The leaves of the code's `use` trees with the name each brings in
/// (its last name, or its `as` alias); the `use` paths of a folder's
/// module that `paths_in` reads relative to it read the same way here.
fn use_paths(code: &str, module: &ModPath, modules: &BTreeSet<ModPath>) -> Vec<(Vec<String>, String)> {
    let children = children(module, modules);
    use_trees(code)
        .into_iter()
        .flat_map(|tree| expand(&tree, &children))
        .collect()
}

/// The text of each `use` declaration's tree.
fn use_trees(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if !ident_before(&c, i) && starts_with_word(&c, i, "use") {
            let start = i + 3;
            let mut j = start;
            while j < c.len() && c[j] != ';' {
                j += 1;
            }
            out.push(c[start..j].iter().collect::<String>());
            i = j;
        }
        i += 1;
    }
    out
}

/// `code` with its `use` declarations blanked.
fn remove_uses(code: &str) -> String {
    let mut out = code.to_string();
    for tree in use_trees(code) {
        out = out.replacen(&format!("use{tree};"), "", 1);
    }
    out
}

/// The leaf paths of one `use` tree, each with the name it brings in.
fn expand(tree: &str, children: &[String]) -> Vec<(Vec<String>, String)> {
    let tokens = tokenize(tree);
    let mut out = Vec::new();
    let mut at = 0;
    expand_from(&tokens, &mut at, Vec::new(), &mut out);
    out.into_iter()
        .filter_map(|(mut path, name)| {
            let first = path.first()?.clone();
            if first == "crate" || first == "super" || first == "self" {
                Some((path, name))
            } else if children.contains(&first) {
                path.insert(0, "self".to_string());
                Some((path, name))
            } else {
                None
            }
        })
        .collect()
}

/// Reads one tree from `tokens[*at..]` below `prefix` into `out`.
fn expand_from(tokens: &[String], at: &mut usize, prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let mut path = prefix;
    while *at < tokens.len() {
        let t = tokens[*at].as_str();
        match t {
            "{" => {
                *at += 1;
                loop {
                    expand_from(tokens, at, path.clone(), out);
                    match tokens.get(*at).map(String::as_str) {
                        Some(",") => *at += 1,
                        Some("}") => {
                            *at += 1;
                            break;
                        }
                        _ => break,
                    }
                    if tokens.get(*at).map(String::as_str) == Some("}") {
                        *at += 1;
                        break;
                    }
                }
                return;
            }
            "::" => *at += 1,
            "," | "}" => break,
            "*" => {
                *at += 1;
                out.push((path.clone(), String::new()));
                return;
            }
            "as" => {
                *at += 1;
                let alias = tokens.get(*at).cloned().unwrap_or_default();
                *at += 1;
                out.push((path.clone(), alias));
                return;
            }
            "self" if !path.is_empty() => {
                *at += 1;
                let name = path.last().cloned().unwrap_or_default();
                out.push((path.clone(), name));
                return;
            }
            _ => {
                path.push(t.to_string());
                *at += 1;
            }
        }
    }
    if let Some(name) = path.last().cloned() {
        out.push((path, name));
    }
}

/// Identifiers, `::` and single punctuation.
fn tokenize(text: &str) -> Vec<String> {
    let c: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else if c[i].is_whitespace() {
            i += 1;
        } else {
            out.push(c[i].to_string());
            i += 1;
        }
    }
    out
}

/// Whether `word` stands at `c[i..]` as a whole word.
fn starts_with_word(c: &[char], i: usize, word: &str) -> bool {
    let w: Vec<char> = word.chars().collect();
    c.len() >= i + w.len()
        && c[i..i + w.len()] == w[..]
        && !c
            .get(i + w.len())
            .is_some_and(|n| n.is_alphanumeric() || *n == '_')
}

/// The path at `c[i..]` (`root::name::name...`) and where it ends.
fn inline_path(c: &[char], i: usize) -> (Vec<String>, usize) {
    let mut path = Vec::new();
    let mut j = i;
    loop {
        let start = j;
        while j < c.len() && (c[j].is_alphanumeric() || c[j] == '_') {
            j += 1;
        }
        if j == start {
            break;
        }
        path.push(c[start..j].iter().collect::<String>());
        let mut k = j;
        while k < c.len() && c[k].is_whitespace() {
            k += 1;
        }
        if c.get(k) == Some(&':') && c.get(k + 1) == Some(&':') {
            j = k + 2;
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
        } else {
            break;
        }
    }
    (path, j)
}

/// The module `path` (from `crate`, `super` or `self`, named in a file of
/// `module`) lands in: the longest start of it that is a module, followed
/// through the re-exports (`aliases`) of that module for the next name.
/// `None` when it leaves the crate.
fn resolve(
    path: &[String],
    module: &ModPath,
    modules: &BTreeSet<ModPath>,
    aliases: &Aliases,
) -> Option<ModPath> {
    let mut base: ModPath;
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &rest[1..];
        }
        Some("self") => {
            base = module.clone();
            rest = &rest[1..];
        }
        Some("super") => {
            base = module.clone();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    let mut depth = full.len();
    while depth > 0 && !modules.contains(&full[..depth]) {
        depth -= 1;
    }
    let mut landed = full[..depth].to_vec();
    // A name the module brings in with `use`, followed to where it comes
    // from (through at most as many re-exports as there are modules).
    if let Some(first) = full.get(depth) {
        let mut name = first.clone();
        for _ in 0..modules.len() {
            let Some((target, item)) = aliases.get(&landed).and_then(|a| a.get(&name)) else {
                break;
            };
            landed = target.clone();
            name = item.clone();
        }
    }
    Some(landed)
}
