package io.gpumeter.common.problem;

/**
 * Input that cannot be accepted, naming the offending field so the caller can fix it: the one refusal every reader of
 * this model throws ({@link Params}, cluster names, triage subjects, domain parsers, configuration readers). Plain
 * Java, so the console shows it in a page's words, and each service's problem mapper (common's
 * {@code ProblemMapper}) answers it as a 400 problem+json naming the field.
 */
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
