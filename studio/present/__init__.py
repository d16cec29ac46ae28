"""Presenting: the rehearsal page, the deck, the ledger and the local server, built from the engine's output and the track."""
