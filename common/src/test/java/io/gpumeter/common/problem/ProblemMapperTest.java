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
