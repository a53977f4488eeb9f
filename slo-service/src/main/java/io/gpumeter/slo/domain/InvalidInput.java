package io.gpumeter.slo.domain;

/** Input the domain rejects, with the field at fault. */
public class InvalidInput extends IllegalArgumentException {

    private final String field;

    public InvalidInput(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
