package io.gpumeter.common.problem;

import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

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
}
