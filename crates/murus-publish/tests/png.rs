//! Diagrams as PNG (issue 23): rendered with resvg from the SVG, text in
//! the shipped font, the same bytes every time.

use murus_engine::Variant;
use murus_publish::diagram::GameGif;
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
        // A Roman tower's disc is cream, a Gaul's brown: the rules file's
        // colours (`colour "#e8dcc0"`, `"#5b3a29"`) in the colour theme.
        assert_eq!(rgb(&p, stack_centre(&svg, "a1"), scale), [0xe8, 0xdc, 0xc0]);
        assert_eq!(rgb(&p, stack_centre(&svg, "h7"), scale), [0x5b, 0x3a, 0x29]);
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

/// A game's frames read back from its GIF: width, height, and each
/// frame's delay and pixels.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u16>, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).unwrap();
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut delays = Vec::new();
    let mut images = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
        images.push(frame.buffer.to_vec());
    }
    (w, h, delays, images)
}

/// A game as a GIF: the start and a frame a ply, each the size of its
/// frame's PNG, the move's cells shaded, looping; every frame has the
/// coordinates and a label under the board.
#[test]
fn a_game_gif_has_a_labelled_frame_a_ply() {
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
    let animation = GameGif::new(&v, start, &moves).scale(0.5);
    let frames = animation.frames();
    let png = Pixmap::decode_png(&frames[0].to_png(0.5).unwrap()).unwrap();
    let (w, h, delays, images) = decode(&bytes);
    assert_eq!((w, h), (png.width(), png.height()));
    assert_eq!(delays, [50, 50, 50, 150]);
    // Each ply changes the picture.
    for pair in images.windows(2) {
        assert_ne!(pair[0], pair[1]);
    }
    // The moves numbered as a record numbers them, under each frame.
    assert_eq!(
        animation.labels(),
        ["Start", "1. b1-b3", "1... g7-g5", "2. c1-c3"]
    );
    for (d, label) in frames.iter().zip(animation.labels()) {
        let svg = d.to_svg();
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
        assert_eq!(
            svg.matches("class=\"coordinate\"").count(),
            8 + 7,
            "{label}"
        );
        assert_eq!(d.size(), frames[0].size(), "{label}");
    }
}

/// Without a scale, a GIF is at least 400 pixels wide, even of a small
/// board; a GIF of three players numbers each round once; a game that ends
/// says how on its last frame.
#[test]
fn a_game_gif_is_400_pixels_wide_and_labels_rounds_and_the_end() {
    let tiny = Variant::compile(
        &include_str!("../../../variants/standard.mg")
            .replace("board rect 8 x 7", "board rect 4 x 4")
            .replace("rank 7", "rank 4"),
    )
    .unwrap();
    for v in [tiny, Variant::standard(), Variant::builtin("hex").unwrap()] {
        let m = v.legal_moves(&v.start())[0];
        let animation = GameGif::new(&v, v.start(), &[m]);
        let (w, _, _, images) = decode(&animation.encode().unwrap());
        assert!(w >= 400, "{}: {w}", v.name());
        assert_eq!(images.len(), 2);
        assert!(animation.pixel_scale() >= 1.0);
    }
    let v = Variant::builtin("hex3-escape").unwrap();
    let mut pos = v.start();
    let mut moves = Vec::new();
    for _ in 0..4 {
        let m = v.legal_moves(&pos)[0];
        pos = v.play(&pos, m);
        moves.push(m);
    }
    let labels = GameGif::new(&v, v.start(), &moves).labels();
    let numbers: Vec<&str> = labels[1..]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(numbers, ["1.", "1...", "1...", "2."]);
    // From a position with the Gauls to move, the first label is theirs.
    let v = Variant::standard();
    let after = v.play(&v.start(), v.parse_move(&v.start(), "b1-b3").unwrap());
    let reply = v.parse_move(&after, "g7-g5").unwrap();
    assert_eq!(
        GameGif::new(&v, after, &[reply]).labels(),
        ["Start", "1... g7-g5"]
    );
    // A breakthrough ends the game: the last label says so.
    let near = v
        .parse_position("1g2g2g2g2g2g2g2/8/r27/8/8/8/1r2r2r2r2r2r2r2 r")
        .unwrap();
    let win = v.parse_move(&near, "a5-a7").unwrap();
    let labels = GameGif::new(&v, near, &[win]).labels();
    assert!(
        labels[1].ends_with(": Romans win by breakthrough"),
        "{labels:?}"
    );
}

/// In print the last move's cells are hatched inside a heavy outline, not
/// shaded the dark cells' grey: a highlighted empty cell, light or dark,
/// gets black lines across it, and no highlight is filled with a grey.
#[test]
fn in_print_a_highlight_is_hatched_not_grey() {
    let v = Variant::standard();
    let d = Diagram::new(&v, v.start()).theme(Theme::Print);
    let (d4, e4) = (d.cell("d4").unwrap(), d.cell("e4").unwrap());
    let lit = d.clone().highlight(d4).highlight(e4);
    let svg = lit.to_svg();
    let plain = Pixmap::decode_png(&d.to_png(1.0).unwrap()).unwrap();
    let hatched = Pixmap::decode_png(&lit.to_png(1.0).unwrap()).unwrap();
    for cell in ["d4", "e4"] {
        let group = svg
            .split(&format!("<g class=\"highlight\" data-cell=\"{cell}\">"))
            .nth(1)
            .unwrap_or_else(|| panic!("{cell}: {svg}"));
        let group = &group[..group.find("</g>").unwrap()];
        assert!(group.contains("<path d=\"M"), "{cell}: hatching");
        assert!(group.contains("fill=\"none\" stroke=\"#000000\" stroke-width=\"3\""));
        // The cell's centre: black lines cross it where there were none.
        let at = cell_centre(&svg, cell);
        let dark = |p: &Pixmap| {
            (-20..20)
                .flat_map(|dy| (-20..20).map(move |dx| (dx, dy)))
                .filter(|&(dx, dy)| {
                    let c = p
                        .pixel((at.0 + dx as f32) as u32, (at.1 + dy as f32) as u32)
                        .unwrap();
                    c.red() < 100
                })
                .count()
        };
        assert_eq!(dark(&plain), 0, "{cell}");
        assert!(dark(&hatched) > 200, "{cell}: {}", dark(&hatched));
    }
    assert!(!svg.contains("fill=\"#9a9a9a\""));
}

/// The centre of `cell`'s square in the SVG.
fn cell_centre(svg: &str, cell: &str) -> (f32, f32) {
    let key = format!("class=\"cell\" data-cell=\"{cell}\"");
    let tag = svg[..svg.find(&key).unwrap()].rsplit('<').next().unwrap();
    let attr = |name: &str| -> f32 {
        let key = format!(" {name}=\"");
        let start = tag.find(&key).unwrap() + key.len();
        tag[start..start + tag[start..].find('"').unwrap()]
            .parse()
            .unwrap()
    };
    (
        attr("x") + attr("width") / 2.0,
        attr("y") + attr("height") / 2.0,
    )
}
