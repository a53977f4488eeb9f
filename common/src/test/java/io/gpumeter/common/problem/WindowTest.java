package io.gpumeter.common.problem;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class WindowTest {

    static Stream<Arguments> windows() {
        return Stream.of(
                arguments("neither: the whole list", null, null, Window.WHOLE),
                arguments("limit alone", "25", null, new Window(25, 0)),
                arguments("offset alone pages by the maximum", null, "40", new Window(Pages.MAX_LIMIT, 40)),
                arguments("both, padded", " 10 ", "0", new Window(10, 0)),
                arguments("the largest limit", "10000", "2147483647", new Window(10_000, Integer.MAX_VALUE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("windows")
    void parses(String name, String limit, String offset, Window expected) {
        assertEquals(expected, Window.of(limit, offset));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                arguments("zero limit", "0", null, "limit", "limit must be between 1 and 10000"),
                arguments("limit over the maximum", "10001", null, "limit", "limit must be between 1 and 10000"),
                arguments("negative offset", "5", "-1", "offset", "offset must be between 0 and 2147483647"),
                arguments("offset past an int", null, "2147483648", "offset", "offset must be between 0 and 2147483647"),
                arguments("not a number", "ten", null, "limit", "limit must be a whole number"),
                arguments("empty offset", null, "", "offset", "offset must be a whole number"),
                arguments("a fraction", "1.5", null, "limit", "limit must be a whole number"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refuses(String name, String limit, String offset, String field, String detail) {
        ApiProblem p = assertThrows(ApiProblem.class, () -> Window.of(limit, offset));
        assertEquals(400, p.status());
        assertEquals(field, p.field());
        assertEquals(detail, p.getMessage());
    }

    @Test
    void onlyTheWholeWindowIsWhole() {
        assertTrue(Window.WHOLE.whole());
        assertFalse(Window.of(null, "0").whole());
    }

    @Test
    void aPageKeepsTheTotalOfTheWholeListThroughAMapping() {
        Page<Integer> page = Page.of(List.of(1, 2, 3), 10);
        Page<String> mapped = page.map(i -> "#" + i);
        assertEquals(List.of("#1", "#2", "#3"), mapped);
        assertEquals(10, mapped.total());
        assertThrows(IllegalArgumentException.class, () -> Page.of(List.of(1, 2), 1));
    }
}
