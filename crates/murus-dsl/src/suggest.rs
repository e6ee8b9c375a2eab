//! "Did you mean …?": the candidate closest to a mistyped word.
//!
//! A typo is a wrong, missing or extra character, or two neighbours written
//! the wrong way round (`ragne` for `range`); each counts as one edit.

/// The candidate closest to `word` by [`edit_distance`], if it is close
/// enough to be a plausible typo: one edit for a word of up to five
/// characters, two for a longer one. The first of equally close candidates
/// wins.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 2);
    candidates
        .map(|c| (edit_distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The number of edits, in characters, that turn `a` into `b`: inserting,
/// deleting or replacing a character, or swapping two neighbours (the
/// optimal string alignment distance; a swapped pair is not edited again).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Distances from a prefix of `a` to every prefix of `b`: for the prefix
    // two characters shorter (`before`), one shorter (`last`), and this one.
    let mut before = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        row[0] = i;
        for j in 1..=b.len() {
            let replace = last[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut d = replace.min(last[j] + 1).min(row[j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            row[j] = d;
        }
        // Shift the rows: `before` takes `last`, `last` takes this row, and
        // the old `before` is overwritten next time.
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The distance by its recursive definition: slow, obviously right.
    fn reference(a: &[char], b: &[char]) -> usize {
        let (i, j) = (a.len(), b.len());
        if i == 0 || j == 0 {
            return i.max(j);
        }
        let mut d = (reference(&a[..i - 1], b) + 1)
            .min(reference(a, &b[..j - 1]) + 1)
            .min(reference(&a[..i - 1], &b[..j - 1]) + usize::from(a[i - 1] != b[j - 1]));
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
            d = d.min(reference(&a[..i - 2], &b[..j - 2]) + 1);
        }
        d
    }

    #[test]
    fn edit_distance_counts_characters() {
        assert_eq!(edit_distance("colr", "colour"), 2);
        assert_eq!(edit_distance("", "ab"), 2);
        assert_eq!(edit_distance("ab", ""), 2);
        assert_eq!(edit_distance("", ""), 0);
        assert_eq!(edit_distance("é", "e"), 1);
        assert_eq!(edit_distance("range", "range"), 0);
    }

    #[test]
    fn edit_distance_counts_a_swap_of_neighbours_as_one_edit() {
        assert_eq!(edit_distance("ragne", "range"), 1);
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("hieght", "height"), 1);
        assert_eq!(edit_distance("ofrward", "forward"), 1);
        assert_eq!(edit_distance("éa", "aé"), 1);
        // Two separate swaps are two edits.
        assert_eq!(edit_distance("ragnee", "rangee"), 1);
        assert_eq!(edit_distance("ohme", "hoem"), 2);
        // A swapped pair is not edited again (optimal string alignment):
        // `ca` → `ac` → `abc` would be two edits.
        assert_eq!(edit_distance("ca", "abc"), 3);
        // Neighbours only: a swap across a letter is two replacements.
        assert_eq!(edit_distance("rgnae", "range"), 2);
    }

    #[test]
    fn closest_catches_swapped_letters() {
        let keywords = ["height", "directions", "range", "onto", "on"];
        assert_eq!(closest("ragne", keywords.into_iter()), Some("range"));
        assert_eq!(closest("hieght", keywords.into_iter()), Some("height"));
        assert_eq!(closest("otno", keywords.into_iter()), Some("onto"));
        // Still too far to be a typo.
        assert_eq!(closest("rgnae", keywords.into_iter()), None);
    }

    proptest! {
        #[test]
        fn edit_distance_matches_its_definition(a in "[abc]{0,6}", b in "[abc]{0,6}") {
            let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            prop_assert_eq!(edit_distance(&a, &b), reference(&ca, &cb));
            prop_assert_eq!(edit_distance(&a, &b), edit_distance(&b, &a));
        }
    }
}
