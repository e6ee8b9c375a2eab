//! Engine (stub).
