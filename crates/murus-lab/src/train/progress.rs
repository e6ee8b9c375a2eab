//! What a training run's [`Handler`](murus_engine::job::Handler) hears:
//! beneath the data, the fits and the validations, which each report their
//! part of it.

/// Where a training run stands: what its
/// [`Handler`](murus_engine::job::Handler) hears as it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum TrainProgress {
    /// Playing the data's games: the positions and games finished without
    /// gaps from game 0 (those a resumed run keeps), of the positions
    /// asked for.
    Data { positions: u64, games: u64, of: u64 },
    /// Fitting a network: epochs done, of the most it runs.
    Fit { epoch: usize, of: usize },
    /// Validating a candidate (`network`, `correction`, `weights`): games
    /// of its match played so far, of the most it may play.
    Validate {
        candidate: String,
        games: u64,
        of: u64,
    },
}
