package io.gpumeter.common.client;

import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AnswersTest {

    private static WebApplicationException answer(int status) {
        return new WebApplicationException(Response.status(status).build());
    }

    private static WebApplicationException answer(int status, String problem) {
        return new WebApplicationException(Response.status(status).type("application/problem+json").entity(problem).build());
    }

    @Test
    void onlyA404IsNotFound() {
        assertTrue(Answers.notFound(answer(404)));
        for (int status : new int[] {400, 401, 403, 410, 500, 503}) {
            assertFalse(Answers.notFound(answer(status)), "HTTP " + status);
        }
        assertFalse(Answers.notFound(new ProcessingException("connection refused")));
        assertFalse(Answers.notFound(new WebApplicationException((Response) null)));
    }

    @Test
    void aNotFoundAnswerIsTheAbsentValueAndEveryOtherFailurePropagates() {
        assertEquals(List.of(), Answers.<List<String>>orIfNotFound(() -> { throw answer(404); }, List.of()));
        assertEquals(List.of("a"), Answers.orIfNotFound(() -> List.of("a"), List.of()));
        assertEquals(List.of(), Answers.<List<String>>orIfNotFound(() -> null, List.of()), "no body is nothing recorded");
        WebApplicationException unavailable = answer(503);
        assertSame(unavailable, assertThrows(WebApplicationException.class,
                () -> Answers.orIfNotFound(() -> { throw unavailable; }, List.of())));
        assertThrows(ProcessingException.class, () -> Answers.orIfNotFound(() -> { throw new ProcessingException("reset"); }, 0));
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 409, 413, 415, 422, 429, 499})
    void aClientErrorIsOurRequestsFaultA422ThatIsNotRetried(int status) {
        RuntimeException refusal = Answers.refusal("the ledger", "batch", answer(status));
        ApiProblem problem = assertInstanceOfProblem(refusal);
        assertEquals(422, problem.status());
        assertEquals("the ledger refused the batch (HTTP " + status + ")", problem.getMessage());
    }

    @Test
    void theRefusingServicesOwnDetailIsPassedOn() {
        ApiProblem problem = assertInstanceOfProblem(Answers.refusal("slo-service", "batch of records",
                answer(400, "{\"status\":400,\"detail\":\"line 3: latencyMs must not be negative\"}")));
        assertEquals("slo-service refused the batch of records (HTTP 400): line 3: latencyMs must not be negative",
                problem.getMessage());
    }

    @Test
    void a500IsTheOtherServiceFailingOnThisRequestNotAnOutage() {
        ApiProblem problem = assertInstanceOfProblem(Answers.refusal("the ledger", "batch", answer(500)));
        assertEquals(500, problem.status());
        assertTrue(problem.getMessage().startsWith("the ledger failed on this batch"), problem.getMessage());
    }

    @ParameterizedTest
    @CsvSource({"502", "503", "504"})
    void unavailabilityIsThrownAsItCameToBeRetried(int status) {
        WebApplicationException e = answer(status);
        assertSame(e, Answers.refusal("the ledger", "batch", e));
        assertSame(e, assertThrows(WebApplicationException.class, () -> Answers.delivered("the ledger", "batch", () -> { throw e; })));
    }

    @Test
    void aDeliveryMapsItsRefusalAndPassesItsAnswer() {
        assertEquals("receipt", Answers.delivered("the ledger", "batch", () -> "receipt"));
        assertEquals(422, assertThrows(ApiProblem.class,
                () -> Answers.delivered("the ledger", "batch", () -> { throw answer(400); })).status());
        ProcessingException dropped = new ProcessingException("connection reset");
        assertSame(dropped, assertThrows(ProcessingException.class,
                () -> Answers.delivered("the ledger", "batch", () -> { throw dropped; })));
    }

    @Test
    void aReasonIsInTheProductsWordsNeverAnExceptionsText() {
        assertEquals("HTTP 503", Answers.reason(answer(503)));
        assertEquals("no answer in time", Answers.reason(new TimeoutException("10 s")));
        assertEquals("connection refused", Answers.reason(new ProcessingException(
                new java.net.ConnectException("Connection refused: localhost/127.0.0.1:8082"))));
        String other = Answers.reason(new IllegalStateException("ERROR: relation \"x\" does not exist at io.gpumeter.X"));
        assertEquals("unreachable or failing", other);
    }

    private static ApiProblem assertInstanceOfProblem(RuntimeException e) {
        assertTrue(e instanceof ApiProblem, () -> "expected a problem, got " + e);
        return (ApiProblem) e;
    }
}
