package io.gpumeter.collector.host;

/** A body that parses but says something a host series cannot say (a negative counter, say); names the series. */
public final class HostInputException extends RuntimeException {

    private final String field;

    public HostInputException(String field, String detail) {
        // no stack trace: hostile bodies must be cheap to refuse
        super(detail, null, false, false);
        this.field = field;
    }

    /** The metric at fault, for the problem's field. */
    public String field() {
        return field;
    }
}
