package io.gpumeter.common.problem;

/**
 * A failure that the caller caused or must know about; the shared mapper renders it as problem+json.
 */
public class ApiProblem extends RuntimeException {

    private final int status;
    private final String title;
    private final String field;

    public ApiProblem(int status, String title, String field, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
        this.field = field;
    }

    public static ApiProblem badRequest(String field, String detail) {
        return new ApiProblem(400, "Bad Request", field, detail);
    }

    public static ApiProblem notFound(String field, String detail) {
        return new ApiProblem(404, "Not Found", field, detail);
    }

    public static ApiProblem tooLarge(String field, String detail) {
        return new ApiProblem(413, "Content Too Large", field, detail);
    }

    public static ApiProblem unavailable(String detail) {
        return new ApiProblem(503, "Service Unavailable", null, detail);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String field() {
        return field;
    }

    public Problem toProblem() {
        return Problem.of(status, title, getMessage(), field);
    }
}
