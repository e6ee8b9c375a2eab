//! The puzzles shipped in the repository's `puzzles/` folder, built in, so
//! that a tool can tell a shipped puzzle from the user's own (and asks
//! before overwriting one). A test keeps the list equal to the folder.

/// One shipped puzzle: its file name and text.
macro_rules! shipped {
    ($name:literal) => {
        ($name, include_str!(concat!("../../../puzzles/", $name)))
    };
}

/// The shipped puzzles, `(file name, text)`, in file-name order.
pub const SHIPPED: &[(&str, &str)] = &[
    shipped!("01-puzzle-one.toml"),
    shipped!("02-5x5-easy.toml"),
    shipped!("03-5x5-easy.toml"),
    shipped!("04-5x5-medium.toml"),
    shipped!("05-5x5-medium.toml"),
    shipped!("06-5x5-medium.toml"),
    shipped!("07-5x5-hard.toml"),
    shipped!("08-5x5-hard.toml"),
    shipped!("09-5x5-medium.toml"),
    shipped!("10-5x5-medium.toml"),
    shipped!("11-5x5-hard.toml"),
    shipped!("12-5x5-hard.toml"),
    shipped!("13-5x5-hard.toml"),
    shipped!("14-5x5-medium.toml"),
    shipped!("15-5x5-hard.toml"),
    shipped!("16-5x5-medium.toml"),
    shipped!("17-5x5-hard.toml"),
    shipped!("18-6x5-medium.toml"),
    shipped!("19-6x5-hard.toml"),
    shipped!("20-6x6-hard.toml"),
    shipped!("21-6x6-medium.toml"),
    shipped!("22-7x6-hard.toml"),
    shipped!("23-7x6-hard.toml"),
    shipped!("24-8x7-hard.toml"),
    shipped!("25-8x7-medium.toml"),
    shipped!("26-8x7-medium.toml"),
    shipped!("27-8x7-hard.toml"),
    shipped!("28-hex-3-medium.toml"),
    shipped!("29-hex-3-medium.toml"),
    shipped!("30-hex-4-hard.toml"),
    shipped!("31-rect-6-x-5-hard.toml"),
    shipped!("32-6x6-hard.toml"),
];

/// The text of the shipped puzzle called `name` (`02-5x5-easy.toml`).
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, text)| text)
}

/// Whether `text`, read from a file called `name`, is that shipped puzzle
/// as shipped (line ends aside).
pub fn is_shipped(name: &str, text: &str) -> bool {
    shipped(name).is_some_and(|s| s.replace("\r\n", "\n") == text.replace("\r\n", "\n"))
}
