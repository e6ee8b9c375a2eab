//! What the printable sheets share: a self-contained HTML page (inline CSS,
//! inline SVG, nothing fetched) with print CSS that fits A4 and Letter.

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
/// print engine breaks between pages by lines, where a flex box may not;
/// a row of figures is a line, so no orphans or widows are kept);
/// each `section.page` starts a new page in print; a figure never breaks
/// across pages.
const CSS: &str = r#"
@page { size: auto; margin: 15mm; }
:root { color-scheme: light; }
body { font-family: Georgia, "Times New Roman", serif; font-size: 10.5pt; line-height: 1.4;
  color: #111; background: #fff; max-width: 180mm; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 20pt; margin: 0 0 0.2em; }
h2 { font-size: 14pt; margin: 1.2em 0 0.4em; border-bottom: 1px solid #999; }
h3 { font-size: 11pt; margin: 0.8em 0 0.2em; }
p { margin: 0.3em 0; }
.sub { color: #444; font-style: italic; }
.figures { orphans: 1; widows: 1; }
figure { display: inline-block; vertical-align: top; width: 48%; margin: 0 1% 5mm 0;
  break-inside: avoid; page-break-inside: avoid; }
figure.wide { display: block; width: 100%; margin-right: 0; }
figure h3 { margin-top: 0; }
figure svg { display: block; width: 100%; height: auto; max-height: 90mm; }
figure.wide svg { max-height: 70mm; }
figcaption { font-size: 9.5pt; margin-top: 0.3em; }
.moves { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 9.5pt; }
.note { font-size: 9.5pt; color: #444; }
@media print {
  body { margin: 0; padding: 0; max-width: none; }
  section.page { break-before: page; page-break-before: always; }
  h2 { break-after: avoid; page-break-after: avoid; }
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
    let heading = heading.map_or(String::new(), |h| format!("<h3>{}</h3>\n", escape(h)));
    format!(
        "<figure{attrs}>\n{heading}{svg}<figcaption>{}</figcaption>\n</figure>\n",
        escape(caption)
    )
}
