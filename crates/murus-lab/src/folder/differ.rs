//! "What differs": one sentence per setting in which a run found in a
//! folder differs from the run asked for (`seed 4 there, 5 asked`), or
//! one shard from another (`seed 1 there, 2 here`).

use std::fmt::Display;

use crate::record::VariantId;

/// Collects the sentences, a setting at a time.
#[derive(Debug)]
pub(crate) struct Differences {
    /// The word for the other side: `asked` (a resume) or `here` (a merge).
    here: &'static str,
    out: Vec<String>,
}

impl Differences {
    /// No difference yet; the other side is called `here`.
    pub(crate) fn new(here: &'static str) -> Differences {
        Differences {
            here,
            out: Vec::new(),
        }
    }

    /// Notes `name` when its value `there` (the folder's) is not `here`.
    pub(crate) fn add(&mut self, name: &str, there: impl Display, here: impl Display) {
        let (there, here) = (there.to_string(), here.to_string());
        if there != here {
            self.out
                .push(format!("{name} {there} there, {here} {}", self.here));
        }
    }

    /// Notes where `there` and `here` name other rules: by their keys
    /// where both have one (so that comments, spacing, the order of
    /// statements and names change nothing), else by their names and the
    /// SHA-256 of their text (a file written before rules had keys).
    pub(crate) fn rules(&mut self, there: &VariantId, here: &VariantId) {
        match (&there.rules_key, &here.rules_key) {
            (Some(a), Some(b)) => {
                if a != b {
                    // Compared whole, shown as the rules' `Display` shows them.
                    let short = |k: &str| format!("{}…", &k[..12.min(k.len())]);
                    self.out.push(format!(
                        "rules key {} there, {} {} (the rules changed)",
                        short(a),
                        short(b),
                        self.here
                    ));
                }
            }
            _ => {
                self.add("variant", &there.name, &here.name);
                self.add(
                    "variant source sha256 (the rules changed)",
                    &there.source_sha256,
                    &here.source_sha256,
                );
            }
        }
    }

    /// Notes every sentence of `more` (already worded).
    pub(crate) fn extend(&mut self, more: Vec<String>) {
        self.out.extend(more);
    }

    /// The sentences, in the order the settings were given.
    pub(crate) fn finish(self) -> Vec<String> {
        self.out
    }
}

/// `none` for a setting that is absent, else its text.
pub(crate) fn or_none(x: Option<impl Display>) -> String {
    x.map_or_else(|| "none".to_string(), |x| x.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_settings_that_differ_are_named_in_order() {
        let mut d = Differences::new("asked");
        d.add("seed", 4, 5);
        d.add("games", 10, 10);
        d.add("shard", or_none(None::<&str>), or_none(Some("1/2")));
        assert_eq!(
            d.finish(),
            ["seed 4 there, 5 asked", "shard none there, 1/2 asked"]
        );
    }
}
