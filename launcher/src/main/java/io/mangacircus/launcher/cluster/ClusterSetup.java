package io.mangacircus.launcher.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import io.mangacircus.launcher.config.MangaCircusConfig;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

/** Hazelcast and event-bus settings for the daemon pair: TCP/IP join to the configured members, no multicast. */
public final class ClusterSetup {

  private ClusterSetup() {
  }

  /** A cluster manager joined to {@code cluster.members} on the bind address. */
  public static HazelcastClusterManager clusterManager(MangaCircusConfig config) {
    MangaCircusConfig.Cluster cluster = config.cluster();
    Config hazelcast = ConfigUtil.loadConfig();
    hazelcast.setClusterName(cluster.name());
    hazelcast.setProperty("hazelcast.phone.home.enabled", "false");
    hazelcast.setProperty("hazelcast.logging.type", "slf4j");
    hazelcast.setProperty("hazelcast.shutdownhook.enabled", "false");
    hazelcast.setProperty("hazelcast.wait.seconds.before.join", "0");
    NetworkConfig network = hazelcast.getNetworkConfig();
    network.setPort(cluster.port()).setPortAutoIncrement(true);
    String bind = config.http().bind();
    if (!"0.0.0.0".equals(bind)) {
      network.getInterfaces().setEnabled(true).addInterface(bind);
    }
    if (!cluster.publicHost().isEmpty()) {
      network.setPublicAddress(cluster.publicHost());
    }
    JoinConfig join = network.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(cluster.members());
    return new HazelcastClusterManager(hazelcast);
  }

  /** Event-bus transport bound to the same address the members use. */
  public static EventBusOptions eventBus(MangaCircusConfig config) {
    String publicHost = config.cluster().publicHost().isEmpty() ? config.http().bind() : config.cluster().publicHost();
    return new EventBusOptions().setHost(config.http().bind()).setClusterPublicHost(publicHost);
  }
}
