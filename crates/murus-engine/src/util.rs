//! Small jobs every crate needs, written once: a stable 64-bit hash, a
//! seedable mixing generator, files written whole or not at all, thread
//! counts, percentiles and civil dates.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The 64-bit FNV-1a hash of `bytes`: stable across runs, platforms and
/// versions (unlike `std`'s hasher), for names of files and caches.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64 (Steele, Lea and Flood 2014, as in Vigna's `splitmix64.c`):
/// one 64-bit state, each output a well-mixed function of a counter. Used for
/// Zobrist keys, per-game seeds and anything else that must be the same on
/// every machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next output; advances the state.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix64(self.0)
    }
}

/// SplitMix64's finaliser: a bijection of `u64` that mixes every input bit
/// into every output bit.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file of
/// its own beside `path` first (`path.PID.N.tmp`, so that writers in
/// parallel, in this process or another, never share one), flushed to disk,
/// then renamed over `path`, so that a kill (Ctrl-C, SIGKILL, a full disk)
/// never leaves a torn file where a good one was, and a reader sees the old
/// file or the new one.
///
/// The error names the file it failed on.
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.{n}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let named = |e: std::io::Error, p: &Path| {
        std::io::Error::new(e.kind(), format!("{}: {e}", p.display()))
    };
    let written = std::fs::File::create(&tmp).and_then(|mut file| {
        file.write_all(bytes.as_ref())?;
        file.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(named(e, path));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        named(e, path)
    })
}

/// How many threads a job should use when the user does not say: the CPUs
/// this process may run on (its affinity mask and cgroup quota, as
/// [`std::thread::available_parallelism`] reads them), and no more than a
/// cluster scheduler gave the task (`SLURM_CPUS_PER_TASK`), so that a
/// one-CPU task on a big node does not run a thread per core of the node.
pub fn default_threads() -> usize {
    let visible = std::thread::available_parallelism().map_or(1, usize::from);
    threads_within(
        visible,
        std::env::var("SLURM_CPUS_PER_TASK").ok().as_deref(),
    )
}

/// `visible` CPUs, capped by a scheduler's `cpus_per_task` when it is a
/// positive whole number (anything else is ignored).
fn threads_within(visible: usize, cpus_per_task: Option<&str>) -> usize {
    let granted = cpus_per_task
        .and_then(|s| s.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    granted.map_or(visible, |n| n.min(visible)).max(1)
}

/// The nearest-rank percentile `p` (0 to 100) of `sorted` data (game
/// lengths, timings): the smallest value with at least `p`% of the data at
/// or below it, always one of the data (so a median of whole numbers is a
/// whole number, the lower middle one of an even count). The default (0) of
/// no data. The one definition of a percentile, and of a median (`p` 50),
/// every report, benchmark and frame timer uses.
pub fn percentile<T: Copy + Default + PartialOrd>(sorted: &[T], p: f64) -> T {
    debug_assert!(
        sorted.is_sorted_by(|a, b| a <= b),
        "percentile of unsorted data"
    );
    if sorted.is_empty() {
        return T::default();
    }
    let rank = (p / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The civil date (year, month, day) of a day count since 1970-01-01, in
/// the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
pub fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_count_leap_days_and_days_before_1970() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(11_016), (2000, 2, 29));
        assert_eq!(civil(11_017), (2000, 3, 1));
        assert_eq!(civil(-1), (1969, 12, 31));
        assert_eq!(civil(20_786), (2026, 11, 29));
    }

    #[test]
    fn percentiles_are_by_nearest_rank() {
        let d = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&d, 50.0), 5);
        assert_eq!(percentile(&d, 95.0), 10);
        assert_eq!(percentile(&d, 5.0), 1);
        assert_eq!(percentile(&d, 0.0), 1);
        assert_eq!(percentile(&d, 100.0), 10);
        assert_eq!(percentile::<u32>(&[], 50.0), 0);
        // Timings too; an even count's median is the lower middle value,
        // not the mean of the two.
        let t = [0.5, 1.5, 2.5, 9.0];
        assert_eq!(percentile(&t, 50.0), 1.5);
        assert_eq!(percentile(&t, 90.0), 9.0);
        assert_eq!(percentile::<f64>(&[], 90.0), 0.0);
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        // From the FNV reference (isthe.com/chongo/tech/comp/fnv).
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // splitmix64.c seeded with 1234567.
        let mut g = SplitMix64(1_234_567);
        assert_eq!(g.next(), 6_457_827_717_110_365_317);
        assert_eq!(g.next(), 3_203_168_211_198_807_973);
        assert_eq!(g.next(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn parallel_writers_of_one_file_never_tear_it() {
        let dir = std::env::temp_dir().join(format!("murus-util-par-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rules.mg");
        let texts: Vec<String> = (0..8).map(|i| i.to_string().repeat(4096)).collect();
        std::thread::scope(|s| {
            for text in &texts {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..20 {
                        write_atomic(path, text).unwrap();
                    }
                });
            }
        });
        let last = std::fs::read_to_string(&path).unwrap();
        assert!(texts.contains(&last), "one writer's whole text");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_schedulers_cpus_per_task_caps_the_default_threads() {
        assert_eq!(threads_within(16, None), 16);
        assert_eq!(threads_within(16, Some("1")), 1);
        assert_eq!(threads_within(16, Some("4")), 4);
        // The scheduler cannot grant more than the process may run on.
        assert_eq!(threads_within(2, Some("8")), 2);
        // Nonsense is ignored, never zero threads.
        assert_eq!(threads_within(16, Some("0")), 16);
        assert_eq!(threads_within(16, Some("two")), 16);
        assert_eq!(threads_within(0, None), 1);
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("murus-util-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("report.json");
        write_atomic(&path, "old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["report.json"], "no temporary file is left");
        let err = write_atomic(&dir.join("missing/x.json"), "x").unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("{}", dir.join("missing/x.json").display())),
            "{err}"
        );
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
