package io.gpumeter.alert.domain;

/** Input that cannot be accepted, naming the offending field so the caller can fix it. */
public class InvalidInput extends IllegalArgumentException {

    private final String field;

    public InvalidInput(String field, String detail) {
        super(detail);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
