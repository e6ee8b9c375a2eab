//! `murus-studio`: the desktop workbench. A thin shell around the
//! `murus_studio` library.
//!
//! Flags:
//! * `--panel play|rules|lab|murals` opens that panel;
//! * `--demo` fills the panels with example content;
//! * `--screenshot FILE` saves a PNG of the window once it has settled, then exits (implies `--demo`);
//! * `--bench-frames N` measures N frames with a bot thinking and a lab run going, prints the
//!   frame-time statistics, then exits;
//! * `--bench-idle N` measures N frames of the idle studio (for comparison);
//! * `--fresh` ignores (and does not overwrite) the saved state;
//! * `--size WxH` sets the window size;
//! * `--check-open-puzzle NAME` opens the shipped puzzle NAME in Murals
//!   without a window (from any folder), says what it found and exits (1
//!   when it fails).

use anyhow::{Context as _, bail};
use murus_studio::{Launch, StudioApp, Tab};

fn parse_args() -> anyhow::Result<(Launch, [f32; 2])> {
    let mut launch = Launch::default();
    let mut size = [1280.0, 800.0];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--panel" => {
                let v = value("--panel")?;
                launch.panel = Some(Tab::parse(&v).with_context(|| {
                    format!("unknown panel `{v}`: expected play, rules, lab or murals")
                })?);
            }
            "--screenshot" => {
                launch.screenshot = Some(value("--screenshot")?.into());
                launch.demo = true;
                launch.fresh = true;
            }
            "--bench-frames" => {
                launch.bench_frames = Some(
                    value("--bench-frames")?
                        .parse()
                        .context("--bench-frames N")?,
                );
                launch.bench_load = true;
                launch.fresh = true;
            }
            "--bench-idle" => {
                launch.bench_frames =
                    Some(value("--bench-idle")?.parse().context("--bench-idle N")?);
                launch.fresh = true;
            }
            "--check-open-puzzle" => {
                let name = value("--check-open-puzzle")?;
                match StudioApp::check_open_puzzle(&name) {
                    Ok(found) => {
                        println!("{found}");
                        std::process::exit(0);
                    }
                    Err(why) => bail!("{why}"),
                }
            }
            "--demo" => launch.demo = true,
            "--fresh" => launch.fresh = true,
            "--size" => {
                let v = value("--size")?;
                let (w, h) = v.split_once('x').context("--size WxH")?;
                size = [
                    w.parse().context("--size WxH")?,
                    h.parse().context("--size WxH")?,
                ];
            }
            "-h" | "--help" => {
                println!(
                    "murus-studio [--panel play|rules|lab|murals] [--demo] [--screenshot FILE] [--bench-frames N] [--bench-idle N] [--fresh] [--size WxH] [--check-open-puzzle NAME]"
                );
                std::process::exit(0);
            }
            other => bail!("unknown argument `{other}` (try --help)"),
        }
    }
    Ok((launch, size))
}

fn main() -> anyhow::Result<()> {
    let (launch, size) = parse_args()?;
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Murus Studio")
            .with_inner_size(size),
        ..Default::default()
    };
    eframe::run_native(
        "Murus Studio",
        options,
        Box::new(move |cc| Ok(Box::new(StudioApp::new(cc, launch)))),
    )
    .map_err(|e| anyhow::Error::new(e).context("cannot start the window"))
}
