//! Instruction sets chosen at run time. The shipped binary is portable (no
//! `target-cpu`), so the hot loops of the move generator come in two
//! copies: a plain one, and one compiled with `popcnt`, `bmi1` and `bmi2`
//! (`#[target_feature]`; their `#[inline(always)]` callees, the generator
//! and the bulk count, are compiled inside them). Which one runs is decided
//! once per process: the second where the CPU has all three, unless the
//! environment sets `MURUS_NO_SIMD` (to anything but `0` or nothing), which
//! forces the plain copy (CI runs the perft tests so).

use std::sync::atomic::{AtomicU8, Ordering};

/// Which copy of the hot loops runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The portable code.
    Plain,
    /// The copy compiled with `popcnt`, `bmi1` and `bmi2`.
    Popcnt,
}

impl Path {
    /// How `murus bench` names it.
    pub fn name(self) -> &'static str {
        match self {
            Path::Plain => "plain",
            Path::Popcnt => "popcnt+bmi1+bmi2",
        }
    }
}

/// 0: not decided yet; 1: plain; 2: popcnt.
static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// The path this process runs, decided on the first call.
#[inline]
pub fn path() -> Path {
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Path::Plain,
        2 => Path::Popcnt,
        _ => {
            let forced =
                std::env::var_os("MURUS_NO_SIMD").is_some_and(|v| !v.is_empty() && v != "0");
            let p = if !forced && supported() {
                Path::Popcnt
            } else {
                Path::Plain
            };
            CHOSEN.store(if p == Path::Popcnt { 2 } else { 1 }, Ordering::Relaxed);
            p
        }
    }
}

/// Whether the fast copy runs in this process.
#[inline(always)]
pub(crate) fn fast() -> bool {
    path() == Path::Popcnt
}

/// Whether this CPU can run the fast copy (whatever the environment says).
pub fn supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}
