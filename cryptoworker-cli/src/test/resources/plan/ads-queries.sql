-- A week of impressions.
SELECT * FROM ads WHERE rowkey >= '20240101' AND rowkey < '20240108';
SELECT SUM(clicks), SUM(impressions) FROM ads WHERE campaign = 'spring-sale';
SELECT SUM(revenue), COUNT(revenue) FROM ads WHERE country = 'FR';
SELECT country, AVG(revenue) FROM ads GROUP BY country;
SELECT device, SUM(clicks) FROM ads GROUP BY device;
SELECT advertiser, SUM(revenue) FROM ads
  WHERE day BETWEEN 20240101 AND 20240131 GROUP BY advertiser;
-- Unservable: a range over a summed measure, a pattern, a join.
SELECT SUM(revenue) FROM ads WHERE revenue > 1000;
SELECT * FROM ads WHERE campaign LIKE 'spring%';
SELECT a.campaign, c.name FROM ads a JOIN campaigns c ON a.campaign = c.id;
