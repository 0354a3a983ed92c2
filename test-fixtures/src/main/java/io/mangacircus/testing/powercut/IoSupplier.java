package io.mangacircus.testing.powercut;

import java.io.IOException;

/** A step on the real disk that the model mirrors, run under the model's lock. */
@FunctionalInterface
interface IoSupplier<T> {

  T get() throws IOException;
}
