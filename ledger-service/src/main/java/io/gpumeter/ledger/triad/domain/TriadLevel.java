package io.gpumeter.ledger.triad.domain;

/** Where one triad figure stands against its thresholds. */
public enum TriadLevel {
    LOW, MID, HIGH
}
