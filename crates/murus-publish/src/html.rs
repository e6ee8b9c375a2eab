//! What the printable sheets share: a self-contained HTML page (inline CSS,
//! inline SVG, nothing fetched) with print CSS that fits A4 and Letter, the
//! rules as a rulebook ([`rulebook_html`]) in the players' colours
//! ([`player_colours`]), and figures set in print pages of two or more
//! ([`figure_pages`]).

use std::fmt::Write as _;

use murus_dsl::rules::Rules;

use crate::words::{Rule, Rulebook};

/// Text escaped for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

/// The style of every sheet. The page box is the printer's paper (`size:
/// auto`) with 15 mm margins: the text block, at most 180 mm wide and
/// 249 mm high, fits A4 (210 × 297 mm) and Letter (216 × 279 mm) alike.
/// Figures stand two by two as inline blocks (which every browser and
/// print engine breaks between pages by lines, where a flex box may not);
/// in print a group of figures (`.figure-page`, [`figure_pages`]) never
/// breaks, and its figures are sized so that four fit a page, so no page
/// holds one figure alone. Each `section.page` starts a new page in print;
/// a figure never breaks across pages; a heading stays with what follows
/// it, and a rule's paragraph with its list.
const CSS: &str = r#"
@page { size: auto; margin: 15mm; }
:root { color-scheme: light; }
body { font-family: Georgia, "Times New Roman", serif; font-size: 10.5pt; line-height: 1.4;
  color: #111; background: #fff; max-width: 180mm; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 20pt; margin: 0 0 0.2em; }
h2 { font-size: 14pt; margin: 1.2em 0 0.4em; border-bottom: 1px solid #999; }
h3 { font-size: 11pt; margin: 0.8em 0 0.2em; }
h4 { font-size: 10.5pt; font-style: italic; font-weight: normal; margin: 0.6em 0 0.2em; }
h1, h2, h3, h4 { break-after: avoid; page-break-after: avoid; }
p { margin: 0.3em 0; }
.sub { color: #444; font-style: italic; }
.intro { font-size: 11pt; }
p.rule { padding-left: 2.6em; text-indent: -2.6em; orphans: 2; widows: 2; }
p.rule .num { display: inline-block; min-width: 2.6em; text-indent: 0; font-variant-numeric: tabular-nums; color: #444; }
p.rule.lead { break-after: avoid; page-break-after: avoid; margin-bottom: 0.1em; }
ul.parts { margin: 0 0 0.4em 2.6em; padding-left: 1.2em; }
ul.parts li { break-inside: avoid; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; border: 1px solid #555;
  border-radius: 50%; margin-right: 0.35em; vertical-align: -0.05em;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.figures { orphans: 1; widows: 1; }
figure { display: inline-block; vertical-align: top; width: 48%; margin: 0 1% 5mm 0;
  break-inside: avoid; page-break-inside: avoid; }
figure.wide { display: block; width: 100%; margin-right: 0; }
figure h3 { margin-top: 0; }
figure svg { display: block; width: 100%; height: auto; max-height: 90mm; }
figure.wide svg { max-height: 70mm; }
figcaption { font-size: 9.5pt; margin-top: 0.3em; }
figcaption .designer { font-style: italic; }
.moves { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 9.5pt; }
.note { font-size: 9.5pt; color: #444; }
@media print {
  body { margin: 0; padding: 0; max-width: none; }
  section.page { break-before: page; page-break-before: always; }
  .figure-page { break-inside: avoid; page-break-inside: avoid; }
  .figure-page figure svg { max-height: 78mm; }
}
"#;

/// A whole HTML document titled `title` around `body`.
pub fn page(title: &str, body: &str) -> String {
    page_with(title, "", body)
}

/// [`page`] with more style after the sheets' own.
pub fn page_with(title: &str, css: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{CSS}{css}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// A figure: a heading (optional), the SVG, and a caption.
pub fn figure(attrs: &str, heading: Option<&str>, svg: &str, caption: &str) -> String {
    captioned(attrs, heading, svg, None, caption)
}

/// [`figure`] with the designer's caption (`caption FIGURE "…"` in the
/// rules file), if any, before Murus's own, each printed once.
pub fn captioned(
    attrs: &str,
    heading: Option<&str>,
    svg: &str,
    designer: Option<&str>,
    caption: &str,
) -> String {
    let heading = heading.map_or(String::new(), |h| format!("<h3>{}</h3>\n", escape(h)));
    let designer = designer.map_or(String::new(), |d| {
        format!("<span class=\"designer\">{}</span> ", escape(d))
    });
    format!(
        "<figure{attrs}>\n{heading}{svg}<figcaption>{designer}{}</figcaption>\n</figure>\n",
        escape(caption)
    )
}

/// How `count` figures are set in print pages: four a page, but never one
/// alone (five are three and two, nine four, three and two).
pub fn figure_pages(count: usize) -> Vec<usize> {
    let mut pages = vec![4; count / 4];
    match count % 4 {
        0 => {}
        1 if count > 1 => {
            // The last full page gives one to the lone figure.
            if let Some(last) = pages.last_mut() {
                *last = 3;
            }
            pages.push(2);
        }
        rest => pages.push(rest),
    }
    pages
}

/// `figures` (each a whole `<figure>`) in `div.figure-page`s as
/// [`figure_pages`] sets them.
pub fn figure_groups(figures: &[String]) -> String {
    let mut out = String::new();
    let mut rest = figures;
    for n in figure_pages(figures.len()) {
        let (page, more) = rest.split_at(n);
        out.push_str("<div class=\"figure-page\">\n");
        for f in page {
            out.push_str(f);
        }
        out.push_str("</div>\n");
        rest = more;
    }
    out
}

/// The players' colours from the rules file, for a page in the colour
/// theme: CSS custom properties (`--player-r: #e8dcc0;`, a player by
/// letter) for the rulebook's swatches. The diagrams draw the same colours
/// themselves ([`crate::Diagram`]'s colour theme).
pub fn player_colours(rules: &Rules) -> String {
    let mut css = String::from(":root {");
    for p in &rules.players {
        let _ = write!(css, " --player-{}: #{:06x};", p.letter, p.colour);
    }
    css.push_str(" }\n");
    css
}

/// A player's swatch, in its colour from [`player_colours`].
fn swatch(letter: char) -> String {
    format!("<span class=\"swatch\" style=\"background: var(--player-{letter})\"></span>")
}

/// The rulebook as HTML, for the rules sheet and the report page: the
/// designer's introduction, then each section as an `<h3>` (`4. Moves`),
/// each sub-heading an `<h4>`, each rule a `<p class="rule">` with its
/// number and run-in name, and its parts a `<ul class="parts">`. With
/// `colours`, each sub-heading, and each rule of one player outside one,
/// has a swatch of the player's colour ([`player_colours`]). No `<div>`,
/// so that a page can find the rulebook's end.
pub fn rulebook_html(book: &Rulebook, colours: bool) -> String {
    let mut b = String::new();
    for p in &book.introduction {
        let _ = writeln!(b, "<p class=\"intro\">{}</p>", escape(p));
    }
    for s in &book.sections {
        let _ = writeln!(
            b,
            "<h3 id=\"rules-{}\">{}. {}</h3>",
            s.number,
            s.number,
            escape(s.heading)
        );
        for g in &s.groups {
            if let Some(h) = &g.heading {
                let swatches: String = if colours {
                    g.players.iter().map(|&l| swatch(l)).collect()
                } else {
                    String::new()
                };
                let letters: String = g.players.iter().collect();
                let _ = writeln!(
                    b,
                    "<h4 class=\"own\" data-players=\"{letters}\">{swatches}{}</h4>",
                    escape(h)
                );
            }
            for r in &g.rules {
                let mark = match (colours, g.heading.is_none(), &r.players[..]) {
                    (true, true, &[one]) => swatch(one),
                    _ => String::new(),
                };
                b.push_str(&rule_html(r, &mark));
            }
        }
    }
    b
}

fn rule_html(r: &Rule, mark: &str) -> String {
    let name = r.name.as_ref().map_or(String::new(), |n| {
        format!("<strong>{}.</strong> ", escape(n))
    });
    let lead = if r.list.is_empty() { "" } else { " lead" };
    let mut b = format!(
        "<p class=\"rule{lead}\" id=\"rule-{0}\"><span class=\"num\">{0}</span>{mark}{name}{1}</p>\n",
        escape(&r.number),
        escape(&r.text)
    );
    if !r.list.is_empty() {
        b.push_str("<ul class=\"parts\">\n");
        for item in &r.list {
            let _ = writeln!(b, "<li>{}</li>", escape(item));
        }
        b.push_str("</ul>\n");
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_print_page_holds_one_figure_alone() {
        for count in 0..40 {
            let pages = figure_pages(count);
            assert_eq!(pages.iter().sum::<usize>(), count, "{count}");
            assert!(
                pages.iter().all(|&n| (1..=4).contains(&n)),
                "{count}: {pages:?}"
            );
            if count > 1 {
                assert!(!pages.contains(&1), "{count}: {pages:?}");
            }
        }
        assert_eq!(figure_pages(5), [3, 2]);
        assert_eq!(figure_pages(9), [4, 3, 2]);
        assert_eq!(figure_pages(6), [4, 2]);
    }
}
