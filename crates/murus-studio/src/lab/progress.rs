//! Progress that only goes forward: a job made of stages (a report's, a
//! balance check's levels and matches, a comparison's checks) tells where
//! it stands stage by stage, and each stage's count starts again from
//! nothing (a level's games, a ladder's match). The bar and the stage it
//! names come from here: the share of the whole job, which never goes
//! back, and the stage actually running, never one that ended before
//! (issue 38: the bar went backwards at each new level, and a late word
//! from a stage that had ended named it again).

/// Where a staged job stands, as far as it has gone.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Advance {
    /// The stage under way (from 0), the furthest one heard of.
    stage: usize,
    /// The share of the whole job done, 0 to 1, the largest heard of.
    fraction: f32,
    /// Whether anything was heard.
    heard: bool,
}

impl Advance {
    /// Nothing heard yet.
    pub fn new() -> Advance {
        Advance::default()
    }

    /// Hears that stage `stage` of `stages` has done `done` of `total`:
    /// whether it is news about the stage under way (or a later one), to be
    /// shown. Word of an earlier stage changes nothing.
    pub fn hear(&mut self, stage: usize, stages: usize, done: u64, total: u64) -> bool {
        let within = if total > 0 {
            (done as f64 / total as f64).min(1.0)
        } else {
            0.0
        };
        self.hear_whole(stage, (stage as f64 + within) / stages.max(1) as f64)
    }

    /// [`Advance::hear`] with the share of the whole job done, 0 to 1, as
    /// the stage under way says it.
    pub fn hear_whole(&mut self, stage: usize, whole: f64) -> bool {
        if self.heard && stage < self.stage {
            return false;
        }
        self.stage = stage;
        self.fraction = self.fraction.max(whole.clamp(0.0, 1.0) as f32);
        self.heard = true;
        true
    }

    /// The stage under way, once one was heard of.
    pub fn stage(&self) -> Option<usize> {
        self.heard.then_some(self.stage)
    }

    /// The share of the whole job done, 0 to 1; it never goes back.
    pub fn fraction(&self) -> f32 {
        self.fraction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_whose_count_starts_again_never_takes_the_bar_back() {
        let mut a = Advance::new();
        assert_eq!(a.stage(), None);
        assert!(a.hear(0, 2, 50, 100));
        assert_eq!(a.fraction(), 0.25);
        // The stage's second part counts from nothing again.
        assert!(a.hear(0, 2, 10, 100));
        assert_eq!(a.fraction(), 0.25);
        assert!(a.hear(1, 2, 0, 10));
        assert_eq!((a.stage(), a.fraction()), (Some(1), 0.5));
        // A late word of the stage that ended names it no more.
        assert!(!a.hear(0, 2, 100, 100));
        assert_eq!((a.stage(), a.fraction()), (Some(1), 0.5));
        assert!(a.hear(1, 2, 10, 10));
        assert_eq!(a.fraction(), 1.0);
    }
}
