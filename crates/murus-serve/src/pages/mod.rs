//! The web pages the server serves, each a module with its routes.

pub mod designer;
pub mod password;
pub mod player;
pub mod replay;
pub mod summary;
