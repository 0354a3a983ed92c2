package io.mangacircus.launcher.supervision;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Deployable;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * One service a launcher deploys and supervises.
 *
 * @param name service name ({@code reader} or {@code scraper}); its ping address is {@code mc.<name>.ping}
 * @param factory makes a fresh verticle for every (re)deploy
 * @param options deployment options (worker or event loop)
 * @param runtimeFile where its supervision state and crash budget are persisted
 */
public record ServiceSpec(String name, Supplier<Deployable> factory, DeploymentOptions options, Path runtimeFile) {
}
