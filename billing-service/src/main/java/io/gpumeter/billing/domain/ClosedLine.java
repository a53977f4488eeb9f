package io.gpumeter.billing.domain;

import java.util.Objects;

/**
 * One line frozen into a closed month: its own usage ({@code corrects} is the month itself) or an adjustment
 * to an earlier closed month that the month carried when it was closed. {@code line.stretch()} indexes the
 * stretches of the month in {@code corrects}, whose cards price it.
 */
public record ClosedLine(LineType type, String corrects, FineLine line) {

    public ClosedLine {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(corrects, "corrects");
        Objects.requireNonNull(line, "line");
    }
}
