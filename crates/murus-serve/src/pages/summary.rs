//! The playtest summary's page for the designer (`GET /rules/{key}/summary`):
//! what people's games of a rules version say, and every player's comment,
//! drawn by the server from [`crate::summary::summary`] with every text
//! escaped. Behind `--password` like the designer's page.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use murus_publish::html::escape;

use super::player::{PAGE_POLICY, html, message_page};
use crate::Shared;
use crate::summary::{Summary, summary};

/// The summary page's route.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new().route("/rules/{key}/summary", get(page))
}

async fn page(State(s): State<Arc<Shared>>, key: Result<Path<String>, PathRejection>) -> Response {
    let Ok(Path(key)) = key else {
        return message_page(
            StatusCode::NOT_FOUND,
            "No such rules",
            "no such rules version",
        );
    };
    match summary(&s.store, &s.variants, &key) {
        Ok(sum) => html(StatusCode::OK, render(&sum), PAGE_POLICY),
        Err(e) => message_page(StatusCode::NOT_FOUND, "No such rules", &e.to_string()),
    }
}

/// A share as a percentage with one decimal.
fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// The page of `sum`.
pub fn render(sum: &Summary) -> String {
    let mut b = String::new();
    let name = escape(&sum.variant);
    let _ = write!(
        b,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Playtest summary: {name}</title>\n\
         <link rel=\"stylesheet\" href=\"/assets/play.css\">\n<link rel=\"icon\" href=\"data:,\">\n</head>\n<body>\n\
         <main class=\"summary\">\n<h1>Playtest summary: {name}</h1>\n\
         <p class=\"sub\">Rules <code>{key}</code> · <a href=\"/rules/{key}/sheet\">Rules sheet</a> · \
         <a href=\"/api/rules/{key}/games.mgn\" download>Every game (.mgn)</a></p>\n",
        key = escape(&sum.rules_key),
    );
    let _ = write!(
        b,
        "<h2>Games</h2>\n<table>\n<tr><th>Games made</th><td data-key=\"games\">{}</td></tr>\n\
         <tr><th>Finished</th><td data-key=\"finished\">{}</td></tr>\n\
         <tr><th>Drawn</th><td data-key=\"draws\">{}</td></tr>\n",
        sum.games, sum.finished, sum.draws
    );
    match &sum.first_player {
        Some(r) => {
            let _ = writeln!(
                b,
                "<tr><th>First player won</th><td data-key=\"first_player\">{} of {} decided: {} \
                 (95% interval {} to {})</td></tr>",
                r.wins,
                r.decided,
                percent(r.rate),
                percent(r.low),
                percent(r.high)
            );
        }
        None => b.push_str(
            "<tr><th>First player won</th><td data-key=\"first_player\">no game decided yet</td></tr>\n",
        ),
    }
    if !sum.lengths.is_empty() {
        let lengths: Vec<String> = sum.lengths.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            b,
            "<tr><th>Lengths (plies)</th><td data-key=\"lengths\">{}</td></tr>",
            lengths.join(", ")
        );
    }
    b.push_str("</table>\n");
    if !sum.endings.is_empty() {
        b.push_str("<h2>How they ended</h2>\n<ul data-key=\"endings\">\n");
        for (how, n) in &sum.endings {
            let _ = writeln!(b, "<li>{}: {n}</li>", escape(how));
        }
        b.push_str("</ul>\n");
    }
    let f = &sum.feedback;
    let mean = |m: Option<f64>| m.map_or("–".to_string(), |x| format!("{x:.2}"));
    let _ = write!(
        b,
        "<h2>What the players said</h2>\n<table>\n\
         <tr><th>Answers</th><td data-key=\"answers\">{}</td></tr>\n\
         <tr><th>Fun (1 to 5)</th><td data-key=\"fun\">{}</td></tr>\n\
         <tr><th>Clarity of the rules (1 to 5)</th><td data-key=\"clarity\">{}</td></tr>\n\
         <tr><th>Would play again</th><td data-key=\"again\">{} of {}</td></tr>\n</table>\n",
        f.answers,
        mean(f.fun),
        mean(f.clarity),
        f.again,
        f.answers
    );
    if !f.comments.is_empty() {
        b.push_str("<h3>Comments</h3>\n<ul class=\"comments\" data-key=\"comments\">\n");
        for c in &f.comments {
            let _ = writeln!(b, "<li>{}</li>", escape(c));
        }
        b.push_str("</ul>\n");
    }
    b.push_str("</main>\n</body>\n</html>\n");
    b
}
