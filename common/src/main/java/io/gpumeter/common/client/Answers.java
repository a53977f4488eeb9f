package io.gpumeter.common.client;

import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.RelayedProblem;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;

import java.util.function.Supplier;

/**
 * What another service's answer means to its caller, decided in one place for every client:
 * <ul>
 *   <li>a 404 is an answer ("nothing recorded", "not offered by that version"), handled inside the circuit breaker;</li>
 *   <li>a 4xx to something we sent is our request's fault: a 422 problem, neither retried nor counted by the breaker;</li>
 *   <li>a 500 is the other service failing on this request: a 500 problem, not retried (it would fail the same way);</li>
 *   <li>anything else (502–504, a dropped connection, a timeout) is unavailability: thrown as it came, to be retried.</li>
 * </ul>
 * The clients' {@code abortOn}/{@code skipOn} name {@link ApiProblem}, so the last two rules hold for retries and breakers.
 */
public final class Answers {

    private Answers() {
    }

    /** True for an HTTP 404 answer. */
    public static boolean notFound(Throwable e) {
        return status(e) == 404;
    }

    /** The call's answer, or {@code absent} when the other service answers 404; other failures propagate. */
    public static <T> T orIfNotFound(Supplier<T> call, T absent) {
        try {
            T answer = call.get();
            return answer == null ? absent : answer;
        } catch (WebApplicationException e) {
            if (notFound(e)) {
                return absent;
            }
            throw e;
        }
    }

    /**
     * A refused delivery as its caller should see it: {@code service} (e.g. "the ledger") refused {@code noun}
     * (e.g. "batch"), by the rules above.
     */
    public static RuntimeException refusal(String service, String noun, WebApplicationException e) {
        Response r = e.getResponse();
        int status = r == null ? -1 : r.getStatus();
        if (status >= 400 && status < 500) {
            return new ApiProblem(422, "Unprocessable Content", null,
                    RelayedProblem.describe(service + " refused the " + noun, r));
        }
        if (status == 500) {
            return new ApiProblem(500, "Internal Server Error", null, service + " failed on this " + noun
                    + " (an internal error, logged by " + service + "); nothing of it is stored, and sending it again "
                    + "fails the same way");
        }
        return e;
    }

    /** The delivery's answer, its refusal mapped by {@link #refusal}. */
    public static <T> T delivered(String service, String noun, Supplier<T> delivery) {
        try {
            return delivery.get();
        } catch (WebApplicationException e) {
            throw refusal(service, noun, e);
        }
    }

    /**
     * A short reason for logs and for notes that answers carry (rule notes, action details): in the product's own
     * words, never an exception's class or message, which may name a library, a host or a statement.
     */
    public static String reason(Throwable e) {
        int status = status(e);
        if (status > 0) {
            return "HTTP " + status;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException) {
                return "circuit breaker open";
            }
            if (t instanceof org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException
                    || t instanceof java.util.concurrent.TimeoutException) {
                return "no answer in time";
            }
            if (t instanceof java.net.ConnectException) {
                return "connection refused";
            }
        }
        return "unreachable or failing";
    }

    private static int status(Throwable e) {
        return e instanceof WebApplicationException w && w.getResponse() != null ? w.getResponse().getStatus() : -1;
    }
}
