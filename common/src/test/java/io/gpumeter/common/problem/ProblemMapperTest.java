package io.gpumeter.common.problem;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

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
}
