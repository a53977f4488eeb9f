package io.gpumeter.collector.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;

import java.io.IOException;

/** A value whose JSON a test writes token by token, so that it can wait between two tokens for what it checks. */
record WrittenValue(Writing writing) implements JsonSerializable {

    /** The tokens, written on the generator the mapper gives. */
    interface Writing {
        void write(JsonGenerator gen) throws IOException;
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
        writing.write(gen);
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer types) throws IOException {
        serialize(gen, provider);
    }
}
