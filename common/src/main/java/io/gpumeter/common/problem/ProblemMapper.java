package io.gpumeter.common.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.stream.Collectors;

/**
 * The one place where each service turns exceptions into problem+json; never leaks stack traces or class names.
 */
public class ProblemMapper {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);

    @ServerExceptionMapper
    public Response apiProblem(ApiProblem e) {
        return respond(e.toProblem());
    }

    /** Input a parameter reader, a domain rule or a parser refused: 400, naming the field. */
    @ServerExceptionMapper
    public Response invalidInput(InvalidInput e) {
        return respond(Problem.of(400, "Bad Request", e.getMessage(), e.field()));
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e) {
        ConstraintViolation<?> first = e.getConstraintViolations().stream().findFirst().orElse(null);
        String field = first == null ? null : leaf(first.getPropertyPath().toString());
        String detail = e.getConstraintViolations().stream()
                .map(v -> leaf(v.getPropertyPath().toString()) + " " + v.getMessage())
                .sorted()
                .collect(Collectors.joining("; "));
        return respond(Problem.of(400, "Bad Request", detail, field));
    }

    /** More specific than the framework's own mapper for this type, which answers plain JSON. */
    @ServerExceptionMapper
    public Response mismatchedJson(MismatchedInputException e) {
        return unreadableJson(e);
    }

    /** Plain words and the field path; Jackson's own message names classes and is never shown. */
    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        JsonFault fault = JsonFault.of(e);
        return respond(Problem.of(400, "Bad Request", "The body does not fit this endpoint: " + fault.detail(),
                fault.field()));
    }

    /** The framework's own refusals (no route, wrong method or media type): a fixed text per status, not its message. */
    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        Response.Status known = Response.Status.fromStatusCode(status);
        String title = known != null ? known.getReasonPhrase() : "Error";
        Response.ResponseBuilder answer = Response.fromResponse(respond(Problem.of(status, title, detail(status), null)));
        String allow = e.getResponse().getHeaderString("Allow");
        return allow == null ? answer.build() : answer.header("Allow", allow).build();
    }

    static String detail(int status) {
        return switch (status) {
            case 400 -> "The request is malformed.";
            case 401 -> "A valid bearer token is required.";
            case 403 -> "The token does not allow this request.";
            case 404 -> "There is nothing at this path.";
            case 405 -> "This method is not allowed here; the Allow header lists those that are.";
            case 406 -> "None of the media types in Accept can be produced here.";
            case 413 -> "The body is too large.";
            case 415 -> "The body's media type is not accepted here.";
            default -> status >= 500 ? "The server failed to handle the request; see the service log for details."
                    : "The request was refused.";
        };
    }

    @ServerExceptionMapper(priority = jakarta.ws.rs.Priorities.USER + 1000)
    public Response unexpected(Throwable e) {
        if (unreachable(e)) {
            // The database or a service went away under the request: nothing was stored, and a retry will do.
            LOG.warn("A dependency is unreachable: " + e.getMessage());
            return Response.fromResponse(respond(Problem.of(503, "Service Unavailable",
                    "A dependency of this service (its database or another service) is unreachable; nothing was "
                            + "stored. Retry later.", null))).header("Retry-After", "5").build();
        }
        LOG.error("Unhandled error", e);
        return respond(Problem.of(500, "Internal Server Error",
                "The server failed to handle the request; see the service log for details.", null));
    }

    /**
     * Unavailability rather than a fault, anywhere in the cause chain: a refused or dropped connection, a timeout, or
     * a database answer whose SQLSTATE class says so (connection exception 08, insufficient resources 53, operator
     * intervention 57 — shutdown, a cancelled statement past its statement_timeout —, and serialization failures and
     * deadlocks 40001/40P01, which a retry resolves).
     */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.ConnectException || t instanceof java.nio.channels.ClosedChannelException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
            if (t instanceof io.vertx.sqlclient.DatabaseException db && transientState(db.getSqlState())) {
                return true;
            }
        }
        return false;
    }

    static boolean transientState(String sqlState) {
        if (sqlState == null || sqlState.length() != 5) {
            return false;
        }
        String category = sqlState.substring(0, 2);
        return category.equals("08") || category.equals("53") || category.equals("57")
                || sqlState.equals("40001") || sqlState.equals("40P01");
    }

    public static Response respond(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem).build();
    }

    private static String leaf(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? path : path.substring(dot + 1);
    }
}
