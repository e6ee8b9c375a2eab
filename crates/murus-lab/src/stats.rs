//! Statistics a designer can trust: Wilson intervals, Elo with an interval,
//! and a sequential probability ratio test.

/// z for a two-sided 95% interval, and `x` rounded to `digits` decimals
/// (the report types' crate holds them: its figures are written alike).
pub use murus_report::numbers::{Z95, round_to};

/// The Wilson score interval (95%) of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    wilson_of(k as f64, n as f64)
}

/// The Wilson score interval of `k` successes in `n` trials for a normal
/// quantile `z` (1.96 for 95%, 3 for about 99.7%).
pub fn wilson_z(k: u64, n: u64, z: f64) -> (f64, f64) {
    wilson_at(k as f64, n as f64, z)
}

/// [`wilson`] for a real number of successes (points, with draws as halves).
fn wilson_of(k: f64, n: f64) -> (f64, f64) {
    wilson_at(k, n, Z95)
}

fn wilson_at(k: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = k / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    // No successes (or no failures): the bound is exactly 0 (or 1), not a
    // rounding error away from it.
    let lo = if k <= 0.0 {
        0.0
    } else {
        ((centre - half) / denom).max(0.0)
    };
    let hi = if k >= n {
        1.0
    } else {
        ((centre + half) / denom).min(1.0)
    };
    (lo, hi)
}

/// The Elo difference that gives expected score `score`.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// [`elo`], with scores outside (0, 1) giving exactly `±inf`.
fn elo_or_inf(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        elo(score)
    }
}

/// The expected score of an Elo difference.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of one side of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score per game (win 1, draw ½).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.25;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Elo difference and its 95% interval.
    ///
    /// The estimate is the Elo of the mean score. The interval maps a 95%
    /// interval of the score to Elo: the normal approximation, score ± z·se
    /// with the observed per-game variance; where that leaves (0, 1), or
    /// collapses because every game had the same result, the Wilson interval
    /// of the points (draws as half points) takes its place on that side.
    /// A Wilson bound reaches 1 (or 0) only when no point was lost (or
    /// won), and then the Elo bound is `+inf` (or `-inf`): the games exclude
    /// no Elo difference on that side, and a finite number there would be an
    /// artefact of a clamp. For the same reason a perfect score has an
    /// infinite estimate. Before any game the estimate is 0 and the interval
    /// unbounded.
    pub fn elo(&self) -> (f64, (f64, f64)) {
        if self.games() == 0 {
            return (0.0, (f64::NEG_INFINITY, f64::INFINITY));
        }
        let n = self.games() as f64;
        let s = self.score();
        let (w_lo, w_hi) = wilson_of(s * n, n);
        let se = (self.variance() / n).sqrt();
        let (lo, hi) = if se > 0.0 {
            let (lo, hi) = (s - Z95 * se, s + Z95 * se);
            (
                if lo <= 0.0 { w_lo } else { lo },
                if hi >= 1.0 { w_hi } else { hi },
            )
        } else {
            (w_lo, w_hi)
        };
        (elo_or_inf(s), (elo_or_inf(lo), elo_or_inf(hi)))
    }

    /// Log-likelihood ratio of H1 (Elo `elo1`) against H0 (`elo0`): the
    /// generalised SPRT for a trinomial (win, draw, loss) outcome, after
    /// M. Van den Bergh, "A practical introduction to the GSPRT" (the test
    /// Fishtest uses). Under each hypothesis the outcome distribution is the
    /// maximum-likelihood one whose expected score is that hypothesis's;
    /// empty outcomes get a tiny count (as Fishtest's `regularize`), so a
    /// run of wins gives about `n · ln(s1 / s0)`, never an infinite ratio.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let counts = [self.losses as f64, self.draws as f64, self.wins as f64];
        let p0 = constrained_mle(&counts, expected_score(elo0));
        let p1 = constrained_mle(&counts, expected_score(elo1));
        counts
            .iter()
            .zip(p0.iter().zip(&p1))
            .filter(|(n, _)| **n > 0.0)
            .map(|(n, (a, b))| n * (b / a).ln())
            .sum()
    }
}

/// Scores of a loss, a draw and a win.
const OUTCOME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The distribution over (loss, draw, win) closest in likelihood to the
/// observed `counts` whose expected score is `s`: `p_j = f_j / (1 + λ(x_j − s))`
/// with λ solving `Σ f_j (x_j − s) / (1 + λ(x_j − s)) = 0` (bisection; the sum
/// falls as λ grows).
fn constrained_mle(counts: &[f64; 3], s: f64) -> [f64; 3] {
    let s = s.clamp(1e-9, 1.0 - 1e-9);
    let reg = counts.map(|c| c.max(1e-3));
    let total: f64 = reg.iter().sum();
    let f = reg.map(|c| c / total);
    let g = |l: f64| -> f64 {
        (0..3)
            .map(|j| {
                let d = OUTCOME_SCORES[j] - s;
                f[j] * d / (1.0 + l * d)
            })
            .sum()
    };
    // 1 + λ(x − s) > 0 for x = 0 and x = 1.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let p: [f64; 3] = std::array::from_fn(|j| f[j] / (1.0 + l * (OUTCOME_SCORES[j] - s)));
    let sum: f64 = p.iter().sum();
    p.map(|x| x / sum)
}

/// SPRT bounds for error rates α and β: (lower, upper).
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_published_values() {
        // 81 of 263 (Wilson 1927 style example): 0.2553–0.3662.
        let (lo, hi) = wilson(81, 263);
        assert!(
            close(lo, 0.2553, 5e-4) && close(hi, 0.3662, 5e-4),
            "{lo} {hi}"
        );
        // 0 of 10: upper bound 0.2775.
        let (lo, hi) = wilson(0, 10);
        assert!(
            close(lo, 0.0, 1e-12) && close(hi, 0.2775, 5e-4),
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        // Exactly 0 and 1 at the ends, not a rounding error away.
        for n in 1..200 {
            assert_eq!(wilson(0, n).0, 0.0, "{n}");
            assert_eq!(wilson(n, n).1, 1.0, "{n}");
        }
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo(0.5), 0.0, 1e-9));
        assert!(close(elo(0.75), 190.848, 1e-3));
        assert!(close(expected_score(elo(0.64)), 0.64, 1e-12));
    }

    #[test]
    fn elo_interval_brackets_the_estimate() {
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (e, (lo, hi)) = w.elo();
        assert!(close(w.score(), 0.7, 1e-12));
        assert!(close(e, elo(0.7), 1e-9));
        assert!(lo < e && e < hi);
    }

    #[test]
    fn a_perfect_score_has_an_open_ended_elo_interval() {
        // 12 wins in 12 games: the Wilson interval of the score is
        // [0.7575, 1], so Elo is at least +197.9 and has no upper bound.
        let (e, (lo, hi)) = Wdl {
            wins: 12,
            draws: 0,
            losses: 0,
        }
        .elo();
        assert_eq!((e, hi), (f64::INFINITY, f64::INFINITY));
        assert!(
            close(lo, elo(wilson(12, 12).0), 1e-9) && close(lo, 197.9, 0.1),
            "{lo}"
        );
        // 12 losses: the mirror image.
        let (e, (lo, hi)) = Wdl {
            wins: 0,
            draws: 0,
            losses: 12,
        }
        .elo();
        assert_eq!((e, lo), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(close(hi, -197.9, 0.1), "{hi}");
        // 11 wins and a loss: the normal interval of the score passes 1
        // (0.917 + 1.96 · 0.080); the Wilson bound of 11 points in 12 takes
        // its place, and the lost game keeps it finite.
        let (e, (lo, hi)) = Wdl {
            wins: 11,
            draws: 0,
            losses: 1,
        }
        .elo();
        assert!(close(e, elo(11.0 / 12.0), 1e-9) && lo.is_finite() && lo < e);
        assert!(close(hi, elo(wilson(11, 12).1), 1e-9) && hi > e, "{hi}");
        // 198 wins and 2 losses (greedy against random): finite too.
        let (e, (lo, hi)) = Wdl {
            wins: 198,
            draws: 0,
            losses: 2,
        }
        .elo();
        assert!(lo < e && e < hi && hi.is_finite(), "{lo} {e} {hi}");
        // Draws count as half points: 11 wins and a draw lost half a point.
        let (_, (_, hi)) = Wdl {
            wins: 11,
            draws: 1,
            losses: 0,
        }
        .elo();
        assert!(hi.is_finite() && hi > 500.0, "{hi}");
        // All draws: 0 Elo, a finite interval from the Wilson interval of
        // the points.
        let (e, (lo, hi)) = Wdl {
            wins: 0,
            draws: 10,
            losses: 0,
        }
        .elo();
        assert!(close(e, 0.0, 1e-9) && lo.is_finite() && hi.is_finite() && lo < 0.0 && hi > 0.0);
        // No games: no information.
        assert_eq!(
            Wdl::default().elo(),
            (0.0, (f64::NEG_INFINITY, f64::INFINITY))
        );
    }

    #[test]
    fn elo_interval_of_a_known_match() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49) / 100 = 0.16, standard error 0.04,
        // score interval 0.7 ± 1.96·0.04 = [0.62160, 0.77840]; in Elo
        // -400·log10(1/s - 1): +147.19 [+86.23, +218.25].
        let (e, (lo, hi)) = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        }
        .elo();
        assert!(close(e, 147.19, 0.01), "{e}");
        assert!(close(lo, 86.23, 0.01), "{lo}");
        assert!(close(hi, 218.25, 0.01), "{hi}");
        // An even match: 0 Elo, symmetric interval.
        let (e, (lo, hi)) = Wdl {
            wins: 45,
            draws: 10,
            losses: 45,
        }
        .elo();
        assert!(close(e, 0.0, 1e-9) && close(lo, -hi, 1e-9), "{e} {lo} {hi}");
    }

    #[test]
    fn llr_of_known_matches() {
        // Trinomial GSPRT, H0 = 0 Elo (s0 = 0.5), H1 = 100 Elo
        // (s1 = 1/(1 + 10^-0.25) = 0.640065); reference values from an
        // independent implementation of the same formulas.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!(
            close(w.llr(0.0, 100.0), 9.42211, 1e-3),
            "{}",
            w.llr(0.0, 100.0)
        );
        // Two straight wins are weak evidence: 2·ln(s1/s0) = 0.49392, far
        // from the bound 2.944 (a zero-variance normal approximation would
        // call this decided).
        let two = Wdl {
            wins: 2,
            draws: 0,
            losses: 0,
        };
        assert!(
            close(two.llr(0.0, 100.0), 0.49392, 1e-3),
            "{}",
            two.llr(0.0, 100.0)
        );
        let w = Wdl {
            wins: 700,
            draws: 0,
            losses: 300,
        };
        assert!(
            close(w.llr(0.0, 50.0), 47.2449, 1e-2),
            "{}",
            w.llr(0.0, 50.0)
        );
        let w = Wdl {
            wins: 500,
            draws: 0,
            losses: 500,
        };
        assert!(
            close(w.llr(0.0, 50.0), -10.3197, 1e-2),
            "{}",
            w.llr(0.0, 50.0)
        );
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        let (lo, hi) = sprt_bounds(0.05, 0.05);
        assert!(close(lo, -2.944_438_979, 1e-6) && close(hi, 2.944_438_979, 1e-6));
    }

    #[test]
    fn llr_favours_the_true_hypothesis() {
        let strong = Wdl {
            wins: 700,
            draws: 0,
            losses: 300,
        };
        assert!(strong.llr(0.0, 50.0) > 2.95);
        let even = Wdl {
            wins: 500,
            draws: 0,
            losses: 500,
        };
        assert!(even.llr(0.0, 50.0) < -2.95);
    }
}
