package io.gpumeter.common.problem;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A refusal another service answered, as the services relay it and the console shows it. */
class ProblemTest {

    @Test
    void aProblemDocumentIsReadMemberByMember() {
        assertEquals(Optional.of(new Problem("about:blank", "Bad Request", 400, "to must be after from", "to", null)),
                Problem.parse("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,"
                        + "\"detail\":\"to must be after from\",\"field\":\"to\"}"));
        // members that are no strings (or blank) are absent, not shown as JSON
        assertEquals(Optional.of(new Problem(null, null, 0, null, null, null)),
                Problem.parse("{\"title\":\" \",\"status\":\"400\",\"detail\":{\"nested\":true},\"field\":7}"));
    }

    @Test
    void whatIsNoJsonObjectIsNoProblem() {
        assertEquals(Optional.empty(), Problem.parse("<html>Bad Gateway</html>"));
        assertEquals(Optional.empty(), Problem.parse("[\"detail\"]"));
        assertEquals(Optional.empty(), Problem.parse("{\"detail\":"));
        assertEquals(Optional.empty(), Problem.parse(""));
        assertEquals(Optional.empty(), Problem.parse(null));
    }
}
