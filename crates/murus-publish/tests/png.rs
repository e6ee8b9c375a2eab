//! Diagrams as PNG (issue 23): rendered with resvg from the SVG, text in
//! the shipped font, the same bytes every time.

use murus_engine::Variant;
use murus_publish::{Diagram, Theme};
use resvg::tiny_skia::Pixmap;

/// The centre of the stack on `cell` in the SVG: its last disc's centre.
fn stack_centre(svg: &str, cell: &str) -> (f32, f32) {
    let key = format!("class=\"stack\" data-cell=\"{cell}\"");
    let group = &svg[svg.find(&key).expect("the stack")..];
    let group = &group[..group.find("</g>").unwrap()];
    let disc = group
        .rsplit("<circle")
        .find(|c| !c.contains("fill=\"none\""))
        .unwrap();
    let attr = |name: &str| -> f32 {
        let key = format!(" {name}=\"");
        let start = disc.find(&key).unwrap() + key.len();
        disc[start..start + disc[start..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    (attr("cx"), attr("cy"))
}

fn rgb(p: &Pixmap, (x, y): (f32, f32), scale: f32) -> [u8; 3] {
    let c = p
        .pixel((x * scale) as u32, (y * scale) as u32)
        .expect("inside the image");
    [c.red(), c.green(), c.blue()]
}

#[test]
fn a_png_has_the_svgs_size_and_its_stacks_colours() {
    let v = Variant::standard();
    let d = Diagram::new(&v, v.start()).coordinates(true);
    let svg = d.to_svg();
    for scale in [1.0, 2.0] {
        let png = d.to_png(scale).unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let p = Pixmap::decode_png(&png).unwrap();
        let width: f32 = svg
            .split("width=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(p.width(), (width * scale).round() as u32);
        // A Roman tower's disc is cream, a Gaul's brown (the colour theme).
        assert_eq!(rgb(&p, stack_centre(&svg, "a1"), scale), [0xf3, 0xea, 0xd2]);
        assert_eq!(rgb(&p, stack_centre(&svg, "h7"), scale), [0x6b, 0x3a, 0x26]);
    }
    // In print, white and black.
    let d = Diagram::new(&v, v.start()).theme(Theme::Print);
    let svg = d.to_svg();
    let p = Pixmap::decode_png(&d.to_png(1.0).unwrap()).unwrap();
    assert_eq!(rgb(&p, stack_centre(&svg, "a1"), 1.0), [0xff, 0xff, 0xff]);
    assert_eq!(rgb(&p, stack_centre(&svg, "h7"), 1.0), [0x1a, 0x1a, 0x1a]);
}

/// The caption is drawn (with no font loaded, resvg drops text silently),
/// and the image is the same bytes every time.
#[test]
fn text_is_drawn_with_the_shipped_font_and_rendering_repeats() {
    let v = Variant::builtin("hex").unwrap();
    let plain = Diagram::new(&v, v.start()).theme(Theme::Print);
    let captioned = plain.clone().caption("Romans to move");
    let (a, b) = (
        Pixmap::decode_png(&plain.to_png(1.0).unwrap()).unwrap(),
        Pixmap::decode_png(&captioned.to_png(1.0).unwrap()).unwrap(),
    );
    // The caption's strip, below the board: dark pixels are its letters.
    let dark = |p: &Pixmap, from: u32| {
        (from..p.height())
            .flat_map(|y| (0..p.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| p.pixel(x, y).is_some_and(|c| c.red() < 128))
            .count()
    };
    assert!(dark(&b, a.height()) > 100, "the caption's letters");
    assert_eq!(
        captioned.to_png(1.0).unwrap(),
        captioned.to_png(1.0).unwrap()
    );
}

/// A game as a GIF: the start and a frame a ply, each the size of the
/// position's PNG, the last move's cells shaded, looping.
#[test]
fn a_game_gif_has_a_frame_a_ply() {
    let v = Variant::standard();
    let start = v.start();
    let mut pos = start;
    let mut moves = Vec::new();
    for text in ["b1-b3", "g7-g5", "c1-c3"] {
        let m = v.parse_move(&pos, text).unwrap();
        pos = v.play(&pos, m);
        moves.push(m);
    }
    let bytes = murus_publish::game_gif(&v, start, &moves, Theme::Colour, true, 0.5, 50).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let png = Pixmap::decode_png(
        &Diagram::new(&v, start)
            .coordinates(true)
            .to_png(0.5)
            .unwrap(),
    )
    .unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes.as_slice()).unwrap();
    assert_eq!(
        (u32::from(decoder.width()), u32::from(decoder.height())),
        (png.width(), png.height())
    );
    let mut delays = Vec::new();
    let mut images = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
        images.push(frame.buffer.to_vec());
    }
    assert_eq!(delays, [50, 50, 50, 150]);
    // Each ply changes the picture.
    for pair in images.windows(2) {
        assert_ne!(pair[0], pair[1]);
    }
}
