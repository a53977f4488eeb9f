package io.gpumeter.common.csv;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class CsvCellsTest {

    static Stream<Arguments> cells() {
        return Stream.of(
                arguments("equals", "=1+1", "'=1+1"),
                arguments("hyperlink", "=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
                arguments("plus", "+41 22", "'+41 22"),
                arguments("minus", "-2+3", "'-2+3"),
                arguments("at", "@SUM(A1:A9)", "'@SUM(A1:A9)"),
                arguments("tab first", "\t=1", "'\t=1"),
                arguments("carriage return first", "\r=1", "'\r=1"),
                arguments("plain name", "acme", "acme"),
                arguments("number", "12.345678", "12.345678"),
                arguments("sign inside", "team-a=b", "team-a=b"),
                arguments("leading space kept as is", " =1", " =1"),
                arguments("already defused", "'=1", "'=1"),
                arguments("empty", "", ""),
                arguments("null", null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cells")
    void neutralise(String caseName, String cell, String expected) {
        assertEquals(expected, CsvCells.neutralise(cell));
    }
}
