package io.gpumeter.common.problem;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProblemMapperTest {

    record BudgetRequest(java.math.BigDecimal monthlyAmount, String currency) {
    }

    @Test
    void aBodyOfTheWrongShapeIsDescribedWithoutNamingTheTargetClass() {
        com.fasterxml.jackson.core.JsonProcessingException e = org.junit.jupiter.api.Assertions.assertThrows(
                com.fasterxml.jackson.core.JsonProcessingException.class, () -> new com.fasterxml.jackson.databind.ObjectMapper()
                        .readValue("{\"monthlyAmount\":{\"x\":1}}", BudgetRequest.class));
        Problem p = (Problem) new ProblemMapper().unreadableJson(e).getEntity();
        assertEquals(400, p.status());
        assertEquals("monthlyAmount", p.field());
        assertEquals("The body does not fit this endpoint: monthlyAmount: expected a number", p.detail());
        assertEquals(null, io.gpumeter.common.testing.Fuzz.namesCode(p.toString()));
    }

    @Test
    void invalidInputIsA400NamingTheField() {
        Response r = new ProblemMapper().invalidInput(new InvalidInput("selector.tenant", "selector.tenant is too long"));
        Problem p = (Problem) r.getEntity();
        assertEquals(400, r.getStatus());
        assertEquals(Problem.MEDIA_TYPE, r.getMediaType().toString());
        assertEquals("selector.tenant", p.field());
        assertEquals("selector.tenant is too long", p.detail());
    }

    @Test
    void theFrameworksOwnRefusalKeepsItsStatusButNotItsMessage() {
        Response r = new ProblemMapper().webApplication(new jakarta.ws.rs.NotAllowedException(
                "RESTEASY003650: No resource method found for io.gpumeter.Thing", "GET", new String[]{"POST"}));
        Problem p = (Problem) r.getEntity();
        assertEquals(405, p.status());
        assertEquals("This method is not allowed here; the Allow header lists those that are.", p.detail());
        assertTrue(r.getHeaderString("Allow").contains("GET"), r.getHeaderString("Allow"));
    }

    @Test
    void anUnreachableDependencyAnywhereInTheChainIsA503() {
        assertTrue(ProblemMapper.unreachable(new CompletionException(new RuntimeException(new ConnectException("refused")))));
        assertTrue(ProblemMapper.unreachable(new java.nio.channels.ClosedChannelException()));
        assertFalse(ProblemMapper.unreachable(new IllegalStateException("bug", new NullPointerException())));
    }

    @ParameterizedTest(name = "SQLSTATE {0}: unavailable {1}")
    @CsvSource({
            "08006, true", "08001, true", "57P01, true", "57014, true", "53300, true", "40001, true", "40P01, true",
            "23505, false", "22P02, false", "42703, false", "XX000, false", "40002, false"})
    void theDatabaseSaysWhetherItIsUnavailableOrTheRequestFailed(String sqlState, boolean unavailable) {
        RuntimeException failure = new CompletionException(new io.vertx.sqlclient.DatabaseException("db", 0, sqlState) { });
        assertEquals(unavailable, ProblemMapper.unreachable(failure));
    }

    @Test
    void aTimeoutIsUnavailability() {
        assertTrue(ProblemMapper.unreachable(new RuntimeException(new java.util.concurrent.TimeoutException("slow"))));
    }
}
