package io.gpumeter.ledger.domain;

/** Where one triad figure stands against its thresholds. */
public enum TriadLevel {
    LOW, MID, HIGH
}
