package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/** Pretty-prints a JSON answer for the terminal, or returns it unchanged when it is not JSON. */
final class Json {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    static String pretty(String body) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(MAPPER.readTree(body));
        } catch (IOException e) {
            return body;
        }
    }
}
