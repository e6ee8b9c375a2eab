//! A collection: records one after another in one text (a `.mgn` file of
//! many games, as PGN files hold many). A record begins at a line that
//! opens a tag (`[`) after the movetext of the one before it; a `[` in a
//! comment, or in the embedded rules, begins nothing.

use murus_dsl::Diagnostic;

use super::{Record, read};
use crate::variant::Variant;

/// The records of `source`, each with its byte offset, in order (an
/// empty or blank text has none).
pub fn split_collection(source: &str) -> Vec<(usize, &str)> {
    let mut starts = vec![0];
    let (mut in_comment, mut escaped, mut moved) = (false, false, false);
    let mut offset = 0;
    for line in source.split_inclusive('\n') {
        let trimmed = line.trim_start_matches([' ', '\t', '\u{FEFF}']);
        if !in_comment {
            if trimmed.starts_with('%') {
                offset += line.len();
                continue;
            }
            if trimmed.starts_with('[') && moved {
                starts.push(offset);
                moved = false;
            }
            if trimmed.starts_with('[') {
                offset += line.len();
                continue;
            }
        }
        for c in line.chars() {
            if in_comment {
                match (escaped, c) {
                    (true, _) => escaped = false,
                    (false, '\\') => escaped = true,
                    (false, '}') => in_comment = false,
                    _ => {}
                }
            } else if c == '{' {
                in_comment = true;
                moved = true;
            } else if !c.is_whitespace() && c != '\u{FEFF}' {
                moved = true;
            }
        }
        offset += line.len();
    }
    starts.push(source.len());
    starts
        .windows(2)
        .map(|w| (w[0], &source[w[0]..w[1]]))
        .filter(|(_, text)| !text.trim().is_empty())
        .collect()
}

/// Reads every record of a collection, each checked as [`read`] checks
/// one (with `fallback` for each); the first record in error stops it, its
/// diagnostics pointing into `source`.
pub fn read_collection(
    source: &str,
    fallback: Option<&Variant>,
) -> Result<Vec<(Record, Variant)>, Vec<Diagnostic>> {
    let mut out = Vec::new();
    for (offset, text) in split_collection(source) {
        match read(text, fallback) {
            Ok(r) => out.push(r),
            Err(mut diags) => {
                for d in &mut diags {
                    d.span.start += offset;
                    d.span.end += offset;
                    for l in &mut d.labels {
                        l.span.start += offset;
                        l.span.end += offset;
                    }
                }
                return Err(diags);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_where_a_tag_follows_movetext_and_not_in_comments() {
        let text = "[Variant \"standard\"]\n[Result \"*\"]\n\n1. a1-a3 {a comment\n[not a tag]} *\n\n\
                    [Variant \"standard\"]\n\n*\n";
        let parts = split_collection(text);
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert!(parts[0].1.contains("[not a tag]"));
        assert!(parts[1].1.starts_with("[Variant"));
        assert_eq!(&text[parts[1].0..], parts[1].1);
        assert!(split_collection("  \n").is_empty());
    }

    #[test]
    fn an_error_in_the_second_record_points_into_the_whole_text() {
        let v = Variant::standard();
        let first = Record {
            variant: "standard".into(),
            ..Record::default()
        }
        .write(&v);
        let text = format!("{first}\n[Variant \"standard\"]\n\n1. z9-z7 *\n");
        let diags = read_collection(&text, None).unwrap_err();
        let at = text.find("z9").unwrap();
        assert!(diags[0].span.start >= at, "{diags:?}");
        let both = format!("{first}\n{first}");
        assert_eq!(read_collection(&both, None).unwrap().len(), 2);
    }
}
