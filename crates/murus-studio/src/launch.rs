//! How the binary launched the studio, and the two modes that are not
//! interactive: saving a screenshot of a settled panel, and measuring
//! frame times (`--screenshot`, `--bench-frames`, `--bench-idle`).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use murus_engine::util::percentile;

/// How the binary launched the studio (command-line flags).
#[derive(Clone, Debug, Default)]
pub struct Launch {
    /// Open this panel instead of the saved one.
    pub panel: Option<crate::Tab>,
    /// Save a PNG of the window here once the panel has settled, then exit.
    pub screenshot: Option<std::path::PathBuf>,
    /// Fill the panel with example content (for screenshots and benchmarks).
    pub demo: bool,
    /// Measure this many frames with a bot thinking and a lab run going,
    /// print the frame-time statistics and exit.
    pub bench_frames: Option<usize>,
    /// With `bench_frames`: load the machine (bots and a lab run); without,
    /// measure the idle studio.
    pub bench_load: bool,
    /// Ignore the saved state.
    pub fresh: bool,
}

impl Launch {
    /// Whether the studio runs a mode whose content must not overwrite the
    /// user's saved state.
    pub fn is_scripted(&self) -> bool {
        self.screenshot.is_some() || self.bench_frames.is_some() || self.fresh
    }
}

/// Frame-time measurement for `--bench-frames`.
#[derive(Debug, Default)]
pub struct FrameStats {
    /// Time spent building the UI each frame (ms).
    pub ui_ms: Vec<f64>,
    /// Time between the starts of successive frames (ms).
    pub interval_ms: Vec<f64>,
    /// Whole frame as eframe measures it: the UI, tessellation and
    /// rendering, without waiting for vsync (ms).
    pub frame_ms: Vec<f64>,
    /// Frames measured while a bot thought and a lab run went on.
    pub busy_frames: usize,
    last_start: Option<Instant>,
}

impl FrameStats {
    /// `(median, p95, max)` of a sample, in ms: percentiles by nearest
    /// rank ([`percentile`], as the lab's and the benchmarks'); zeros for
    /// no sample.
    pub fn summary(sample: &[f64]) -> (f64, f64, f64) {
        let mut s = sample.to_vec();
        s.sort_by(f64::total_cmp);
        (
            percentile(&s, 50.0),
            percentile(&s, 95.0),
            percentile(&s, 100.0),
        )
    }

    /// Notes the start of a frame.
    pub fn frame_started(&mut self, start: Instant) {
        if let Some(prev) = self.last_start.replace(start) {
            self.interval_ms
                .push(start.duration_since(prev).as_secs_f64() * 1e3);
        }
    }

    fn clear(&mut self) {
        self.ui_ms.clear();
        self.interval_ms.clear();
        self.frame_ms.clear();
        self.busy_frames = 0;
    }
}

/// What the scripted modes need of the app.
pub trait Host {
    /// Whether background work that changes the picture (lab runs, solvers,
    /// compilations) has finished.
    fn settled(&self) -> bool;
    /// Whether a bot is thinking and a lab run is going.
    fn fully_loaded(&self) -> bool;
    /// Restarts whatever load has finished (a game over, a lab run done).
    fn keep_loaded(&mut self, ctx: &egui::Context);
    /// `"standard board, panel Play"`, for the benchmark's report.
    fn describe(&self) -> String;
}

/// Runs the scripted modes frame by frame.
#[derive(Debug, Default)]
pub struct Scripted {
    pub launch: Launch,
    frames: u64,
    pub stats: FrameStats,
    shot: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    shot_requested: bool,
    settle_frames: u64,
}

/// Start-up frames the benchmark skips (shader compilation, font atlas).
const WARM_UP_FRAMES: u64 = 30;

impl Scripted {
    pub fn new(launch: Launch) -> Scripted {
        Scripted {
            launch,
            ..Scripted::default()
        }
    }

    /// Whether frame times are being measured.
    pub fn measuring(&self) -> bool {
        self.launch.bench_frames.is_some()
    }

    /// Call at the start of each frame.
    pub fn frame_started(&mut self, start: Instant) {
        self.stats.frame_started(start);
        self.frames += 1;
    }

    /// Call at the end of each frame.
    pub fn frame_ended(&mut self, start: Instant, ctx: &egui::Context, host: &mut impl Host) {
        self.stats.ui_ms.push(start.elapsed().as_secs_f64() * 1e3);
        self.bench(ctx, host);
        self.screenshot(ctx, host);
    }

    fn bench(&mut self, ctx: &egui::Context, host: &mut impl Host) {
        let Some(n) = self.launch.bench_frames else {
            return;
        };
        ctx.request_repaint();
        if self.launch.bench_load {
            if self.frames > 1 {
                host.keep_loaded(ctx);
            }
            self.stats.busy_frames += usize::from(host.fully_loaded());
        }
        if self.frames == WARM_UP_FRAMES {
            self.stats.clear();
        }
        if self.frames > WARM_UP_FRAMES && self.stats.ui_ms.len() >= n {
            let (m, p95, max) = FrameStats::summary(&self.stats.ui_ms);
            let (im, ip95, imax) = FrameStats::summary(&self.stats.interval_ms);
            let (fm, fp95, fmax) = FrameStats::summary(&self.stats.frame_ms);
            println!(
                "frames: {n} on the {}, {} of them with a bot thinking and a lab run going",
                host.describe(),
                self.stats.busy_frames
            );
            println!("ui build time    ms: median {m:.2}  p95 {p95:.2}  max {max:.2}");
            println!(
                "whole frame      ms: median {fm:.2}  p95 {fp95:.2}  max {fmax:.2}  (ui + tessellation + rendering, no vsync wait)"
            );
            println!("frame interval   ms: median {im:.2}  p95 {ip95:.2}  max {imax:.2}");
            self.launch.bench_frames = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    fn screenshot(&mut self, ctx: &egui::Context, host: &impl Host) {
        let Some(path) = self.launch.screenshot.clone() else {
            return;
        };
        // Let the panel settle: lab runs and solvers finish first.
        if host.settled() {
            self.settle_frames += 1;
        }
        ctx.request_repaint();
        if !self.shot_requested && (self.settle_frames > 20 || self.frames > 3000) {
            self.shot_requested = true;
            let slot = self.shot.clone();
            let ctx2 = ctx.clone();
            ctx.request_screenshot(move |img| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(img);
                }
                ctx2.request_repaint();
            });
        }
        let taken = self.shot.lock().ok().and_then(|mut s| s.take());
        if let Some(img) = taken {
            let [w, h] = img.size;
            let bytes: Vec<u8> = img
                .pixels
                .iter()
                .flat_map(egui::Color32::to_array)
                .collect();
            match image::RgbaImage::from_raw(w as u32, h as u32, bytes) {
                Some(buf) => match buf.save(&path) {
                    Ok(()) => println!("saved {}", path.display()),
                    Err(e) => eprintln!("{}: {e}", path.display()),
                },
                None => eprintln!("screenshot has the wrong size"),
            }
            self.launch.screenshot = None;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_times_take_the_percentiles_every_report_takes() {
        // An even count, out of order: the median is the lower middle
        // value (nearest rank), not the upper one nor the mean of the two.
        let sample = [4.0, 1.0, 3.0, 2.0];
        let sorted = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(FrameStats::summary(&sample), (2.0, 4.0, 4.0));
        assert_eq!(
            FrameStats::summary(&sample),
            (percentile(&sorted, 50.0), percentile(&sorted, 95.0), 4.0)
        );
        assert_eq!(FrameStats::summary(&[]), (0.0, 0.0, 0.0));
    }
}
