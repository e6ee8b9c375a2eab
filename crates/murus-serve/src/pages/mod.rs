//! The web pages the server shows, each in its own module with its routes.

pub mod player;
