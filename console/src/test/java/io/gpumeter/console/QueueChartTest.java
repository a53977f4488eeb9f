package io.gpumeter.console;

import io.gpumeter.console.QueueAnswers.Wait;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The Queues page's chart draws at most 20 groups, those whose p99 wait is longest; the table keeps them all. */
class QueueChartTest {

    private static Wait wait(String key, Integer p99Minutes) {
        BigDecimal p99 = p99Minutes == null ? null : BigDecimal.valueOf(p99Minutes * 60L);
        return new Wait(key, 10, BigDecimal.ONE, BigDecimal.ONE, p99, p99);
    }

    @Test
    void twentyGroupsOrFewerAreDrawnAsTheyCome() {
        List<Wait> waits = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waits.add(wait("q-" + i, 20 - i));
        }
        assertSame(waits, QueuesResource.charted(waits));
    }

    @Test
    void pastTwentyTheLongestP99sAreDrawnLongestFirstTiesByName() {
        List<Wait> waits = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            waits.add(wait(String.format("q-%02d", i), i));   // q-23 waits 23 minutes at p99, q-00 none
        }
        waits.add(wait("q-tie", 10));                          // as long as q-10, and after it by name
        waits.add(wait("q-unknown", null));                    // no p99: counted as no wait
        List<String> drawn = QueuesResource.charted(waits).stream().map(Wait::group).toList();
        assertEquals(20, drawn.size());
        assertEquals(List.of("q-23", "q-22", "q-21", "q-20", "q-19", "q-18", "q-17", "q-16", "q-15", "q-14", "q-13",
                "q-12", "q-11", "q-10", "q-tie", "q-09", "q-08", "q-07", "q-06", "q-05"), drawn);
    }
}
