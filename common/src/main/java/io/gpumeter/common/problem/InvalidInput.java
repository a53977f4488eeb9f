package io.gpumeter.common.problem;

/**
 * Input that cannot be accepted, naming the offending field so the caller can fix it. Plain Java, so domain code and
 * configuration readers throw it too; the shared {@link ProblemMapper} answers it as a 400 problem with the field.
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
