//! The designer's page (`GET /`): a rules file pasted or uploaded and
//! compiled as `murus check` compiles it (`POST /api/rules`), the rules
//! versions kept (`GET /api/rules`), and a playtest game made from one of
//! them with its invitation links (through `POST /api/games`).
//!
//! The page is static HTML, CSS and JavaScript embedded here; everything a
//! user wrote (titles, names, diagnostics) reaches it only as JSON and is
//! put in the page as text, never as HTML.

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use murus_dsl::{Diagnostic, Severity};
use murus_engine::Variant;
use serde::{Deserialize, Serialize};

use crate::Shared;
use crate::api::ApiError;
use crate::games::GameError;

/// The largest rules file taken (the shipped ones are under 4 KiB).
pub const MAX_SOURCE: usize = 64 * 1024;

const PAGE: &str = include_str!("../../assets/designer.html");
const SCRIPT: &str = include_str!("../../assets/designer.js");
const STYLE: &str = include_str!("../../assets/designer.css");

/// The designer's routes: the page, its assets and the rules API.
pub fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/", get(page))
        .route("/assets/designer.js", get(script))
        .route("/assets/designer.css", get(style))
        .route("/api/rules", get(list).post(upload))
}

/// The headers every page and asset is sent with: nothing is fetched from
/// elsewhere, no script runs but the page's own file, no other site frames
/// it.
fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'self'; script-src 'self'; style-src 'self'; \
                 img-src 'self' data:; frame-ancestors 'none'; form-action 'none'",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::REFERRER_POLICY, "no-referrer"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn page() -> Response {
    asset("text/html; charset=utf-8", PAGE)
}

async fn script() -> Response {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

async fn style() -> Response {
    asset("text/css; charset=utf-8", STYLE)
}

/// `POST /api/rules`'s body: a rules file's text, and the name of the file
/// it came from (for the diagnostics' first line), if uploaded.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    pub source: String,
    #[serde(default)]
    pub file: Option<String>,
}

/// A diagnostic as the API shows it: where it is and what it says, and
/// the whole of it rendered as `murus check` prints it.
#[derive(Debug, Serialize)]
pub struct DiagnosticView {
    pub severity: &'static str,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub rendered: String,
}

impl DiagnosticView {
    fn of(d: &Diagnostic, file: &str, source: &str) -> DiagnosticView {
        let (line, column) = d.line_col(source);
        DiagnosticView {
            severity: match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            },
            line,
            column,
            message: d.message.clone(),
            rendered: d.render(file, source),
        }
    }
}

/// A rules version as the API lists it.
#[derive(Debug, Serialize)]
pub struct Version {
    pub key: String,
    pub name: String,
    pub title: String,
    /// The players' names, in seat order: one seat each.
    pub players: Vec<String>,
    /// A shipped variant's (not an upload's).
    pub shipped: bool,
    pub sheet_url: String,
}

/// `POST /api/rules`'s answer: the version kept, and the warnings.
#[derive(Debug, Serialize)]
pub struct Uploaded {
    #[serde(flatten)]
    pub version: Version,
    /// Whether the version is new; else the same rules (perhaps retitled
    /// or renamed) were kept before, and are the version answered.
    pub new: bool,
    pub warnings: Vec<DiagnosticView>,
}

/// `POST /api/rules`'s answer to a file with errors (422).
#[derive(Debug, Serialize)]
pub struct Rejected {
    pub error: String,
    pub diagnostics: Vec<DiagnosticView>,
}

/// The file name diagnostics are rendered with: the upload's own name (its
/// last component, at most 80 characters) or `rules.mg`.
fn file_name(given: Option<&str>) -> String {
    let name = given
        .map(|f| f.rsplit(['/', '\\']).next().unwrap_or_default().trim())
        .filter(|f| !f.is_empty())
        .unwrap_or("rules.mg");
    name.chars().filter(|c| !c.is_control()).take(80).collect()
}

/// Whether `name` is a shipped variant's.
fn is_shipped_name(name: &str) -> bool {
    murus_engine::BUILTIN.iter().any(|(n, _)| *n == name)
}

fn version(key: String, v: &Variant, shipped: bool) -> Version {
    Version {
        sheet_url: format!("/rules/{key}/sheet"),
        key,
        name: v.name().to_string(),
        title: v.rules().title.clone(),
        players: (0..v.player_count()).map(|p| v.player_name(p)).collect(),
        shipped,
    }
}

/// `POST /api/rules`: compiles a rules file as `murus check` does (its
/// parameters at their defaults); with no error, keeps it as a rules
/// version (201), else answers every diagnostic (422).
async fn upload(
    State(s): State<Arc<Shared>>,
    body: Result<Json<Upload>, JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(asked) = body?;
    if asked.source.len() > MAX_SOURCE {
        return Err(ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: format!(
                "the rules file is {} bytes: at most {MAX_SOURCE} are taken",
                asked.source.len()
            ),
        });
    }
    let file = file_name(asked.file.as_deref());
    let source = asked.source;
    // Compiling is pure work bounded by the file's size (boards of at most
    // murus_dsl::geometry::MAX_SLOTS cells): off the async threads.
    let compiled = tokio::task::spawn_blocking(move || {
        let result = murus_dsl::compile(&source).map(|c| {
            let warnings: Vec<DiagnosticView> = c
                .warnings
                .iter()
                .map(|d| DiagnosticView::of(d, &file, &source))
                .collect();
            (Variant::from_rules(c.rules, &source), warnings)
        });
        result.map_err(|diags| {
            let errors = diags.iter().filter(|d| d.is_error()).count();
            Rejected {
                error: format!(
                    "{file} does not compile: {}",
                    murus_engine::text::plural(errors as u64, "error")
                ),
                diagnostics: diags
                    .iter()
                    .map(|d| DiagnosticView::of(d, &file, &source))
                    .collect(),
            }
        })
    })
    .await
    .map_err(|_| ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: "the compiler stopped: try again".into(),
    })?;
    let (variant, warnings) = match compiled {
        Ok(c) => c,
        Err(rejected) => {
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, Json(rejected)).into_response());
        }
    };
    // An upload named as a shipped variant (a copy of standard.mg being
    // changed) is kept by its key only: the name goes on meaning the
    // shipped rules.
    let bind_name = !is_shipped_name(variant.name());
    let new = !s.variants.has(&variant.rules_key().to_hex());
    let key = s
        .variants
        .add_version(&s.store, variant, bind_name)
        .map_err(GameError::from)?;
    // The version kept: this file's, or the one of the same rules kept
    // before (its name and title).
    let (_, kept) = s.variants.find(&key).ok_or_else(|| ApiError {
        status: StatusCode::SERVICE_UNAVAILABLE,
        message: "the rules version was not kept: try again".into(),
    })?;
    let shipped =
        is_shipped_name(kept.name()) && s.variants.find(kept.name()).is_some_and(|(k, _)| k == key);
    let answer = Uploaded {
        version: version(key, &kept, shipped),
        new,
        warnings,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `GET /api/rules`'s answer.
#[derive(Debug, Serialize)]
pub struct Versions {
    pub versions: Vec<Version>,
}

/// `GET /api/rules`: the rules versions served, in the order they were
/// first kept.
async fn list(State(s): State<Arc<Shared>>) -> Result<Json<Versions>, ApiError> {
    let rules = s.store.all_rules().map_err(GameError::from)?;
    let versions = rules
        .into_iter()
        .filter_map(|(key, _)| {
            let (_, v) = s.variants.find(&key)?;
            let shipped = is_shipped_name(v.name())
                && s.variants.find(v.name()).is_some_and(|(k, _)| k == key);
            Some(version(key, &v, shipped))
        })
        .collect();
    Ok(Json(Versions { versions }))
}
