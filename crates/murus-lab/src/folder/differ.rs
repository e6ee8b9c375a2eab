//! "What differs": one sentence per setting in which a run found in a
//! folder differs from the run asked for (`seed 4 there, 5 asked`), or
//! one shard from another (`seed 1 there, 2 here`).

use std::fmt::Display;

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
