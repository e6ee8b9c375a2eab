//! A rules version's playtest games exported: one `.mgn` collection (each
//! game's record as `murus` writes records, one after another), with its
//! result (by the rules, a resignation or a draw agreed), the seats' kinds
//! and the date it was made as tags.

use murus_engine::Record;

use crate::games::{GameError, Loaded, Variants};
use crate::store::Store;

/// The date and time (UTC) of `secs` since the Unix epoch, as records'
/// tags write them: `2026.11.29` and `09:49:26`.
pub fn utc(secs: i64) -> (String, String) {
    let days = secs.div_euclid(86_400);
    let rest = secs.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        ),
    )
}

/// Game `id`'s record: its moves, its result (by the rules, or as people
/// ended it), and tags: `Event`, `Game` (its id), `UTCDate` and `UTCTime`
/// (when it was made), `Seats` (each seat's kind in seat order: `human` or
/// a bot level), the rules embedded when they are not a shipped
/// variant's.
pub fn record(store: &Store, variants: &Variants, id: &str) -> Result<Record, GameError> {
    let loaded = Loaded::load(store, variants, id)?;
    let v = loaded.game.variant();
    let mut r = Record::from_game_record(&loaded.game.record());
    r.tags.clear();
    r.result = loaded.view().result;
    r.embed_rules(v);
    r.set_tag("Event", "Murus playtest");
    r.set_tag("Game", id);
    if let Some(secs) = store.created(id)? {
        let (date, time) = utc(secs);
        r.set_tag("UTCDate", date);
        r.set_tag("UTCTime", time);
    }
    let seats: Vec<&str> = loaded.row.seats.iter().map(|s| s.kind.as_str()).collect();
    r.set_tag("Seats", seats.join(", "));
    Ok(r)
}

/// Every game of rules version `key` (a key or a served variant's name),
/// oldest first, as one `.mgn` collection: the records one after another,
/// a blank line between.
pub fn collection(store: &Store, variants: &Variants, key: &str) -> Result<String, GameError> {
    let (key, v) = variants
        .find(key)
        .ok_or_else(|| GameError::NoVariant(key.chars().take(64).collect()))?;
    let mut out = String::new();
    for id in store.games_of(&key)? {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&record(store, variants, &id)?.write(&v));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::utc;

    #[test]
    fn dates_are_the_calendars() {
        assert_eq!(utc(0), ("1970.01.01".into(), "00:00:00".into()));
        assert_eq!(utc(1_795_945_766), ("2026.11.29".into(), "09:49:26".into()));
        assert_eq!(utc(951_782_400), ("2000.02.29".into(), "00:00:00".into()));
    }
}
