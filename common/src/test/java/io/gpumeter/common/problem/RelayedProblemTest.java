package io.gpumeter.common.problem;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RelayedProblemTest {

    @Test
    void onlyTheDetailOfAProblemDocumentIsPassedOn() {
        assertEquals(Optional.of("facts[0].uid: expected a string"), RelayedProblem.detail(
                "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"facts[0].uid: expected a string\"}"));
    }

    @Test
    void anythingElseIsNotPassedOn() {
        assertEquals(Optional.empty(), RelayedProblem.detail("<html>java.lang.IllegalStateException at org.foo.Bar</html>"));
        assertEquals(Optional.empty(), RelayedProblem.detail("{\"error\":\"com.fasterxml.jackson.core.JsonParseException\"}"));
        assertEquals(Optional.empty(), RelayedProblem.detail("{\"detail\":{\"nested\":true}}"));
        assertEquals(Optional.empty(), RelayedProblem.detail((String) null));
    }

    @Test
    void aLongDetailIsCut() {
        assertEquals(501, RelayedProblem.detail("{\"detail\":\"" + "x".repeat(2000) + "\"}").orElseThrow().length());
    }
}
