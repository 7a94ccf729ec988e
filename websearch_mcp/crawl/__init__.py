"""Reading a whole site: robots.txt, sitemaps, a frontier shared through the store, politeness per
host, and the two tools' work (`map_site`, `crawl_site`). Nothing here is imported at start-up."""
